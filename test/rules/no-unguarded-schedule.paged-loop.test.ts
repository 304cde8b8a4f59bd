// no-unguarded-schedule on a loop with a pause whose test is a local flag: quiet when the loop's own
// body sets the flag from what it read (a paged import walks to its last page once); reported when
// only a signal handler clears it, or only a literal `false` on an error — those loops run until
// the process stops, a period on every replica, reported at the loop's head with no suggestion.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'shop' } };

/** A catalog copied into the products table, `flag` the loop's test, `setup` before it, `after` at the end of each pass. */
const catalogLoop = (flag: string, setup: string[], after: string[], name = 'importCatalog') =>
  lines(
    "import { catalog } from './catalog';",
    "import { db } from './db';",
    'const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));',
    `export async function ${name}() {`,
    ...setup,
    `  while (${flag}) {`,
    '    const page = await catalog.list({ cursor });',
    '    for (const item of page.items) await db.product.upsert({ where: { sku: item.sku }, create: item, update: item });',
    ...after,
    '    await sleep(2_000);',
    '  }',
    '}',
  );

const reportedAt = (code: string) => ({
  settings,
  code,
  errors: [
    {
      messageId: 'unguardedSchedule' as const,
      line: code.split('\n').findIndex((l) => l.includes('while (')) + 1,
      column: 3,
      suggestions: [],
    },
  ],
});

ruleTester.run('no-unguarded-schedule: a loop ended by what it reads', noUnguardedSchedule, {
  valid: [
    {
      settings,
      code: catalogLoop(
        'hasMore',
        ['  let cursor = 0;', '  let hasMore = true;'],
        ['    cursor = page.nextCursor;', '    hasMore = Boolean(page.nextCursor);'],
      ),
    },
    {
      settings,
      code: catalogLoop(
        '!done',
        ['  let cursor = 0;', '  let done = false;'],
        ['    cursor = page.nextCursor;', '    done = page.items.length === 0;'],
      ),
    },
  ],
  invalid: [
    // Cleared only by a signal handler: it runs until the process stops.
    reportedAt(
      catalogLoop(
        'running',
        ['  const cursor = 0;', '  let running = true;', "  process.on('SIGTERM', () => {", '    running = false;', '  });'],
        [],
        'mirrorCatalog',
      ),
    ),
    // Cleared only to a literal on an error.
    reportedAt(
      catalogLoop('running', ['  const cursor = 0;', '  let running = true;'], ['    if (!page) running = false;'], 'mirrorCatalog'),
    ),
  ],
});
