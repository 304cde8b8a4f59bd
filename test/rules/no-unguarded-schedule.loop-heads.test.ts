// no-unguarded-schedule on an endless poll loop written `while (1)`: the same loop as `while (true)`
// and `for (;;)`, reported at its head (a poll loop's guard is written by hand: no suggestion). A loop
// that can leave (`break` once nothing is left) is a paged read, and `while (0)` never runs.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'ledger' } };

/** A loop with head `head` settling due transfers every two seconds, `extra` first in its body. */
const settler = (head: string, ...extra: string[]) =>
  lines(
    "import { db } from './db';",
    "import { sleep } from './sleep';",
    'export async function settleTransfers() {',
    `  ${head} {`,
    ...extra,
    '    await db.query("UPDATE transfers SET settled = true WHERE due_at < now() AND settled = false");',
    '    await sleep(2000);',
    '  }',
    '}',
  );
const atHead = (column: number) => [{ messageId: 'unguardedSchedule' as const, line: 4, column, suggestions: [] }];

ruleTester.run('no-unguarded-schedule: endless loop heads', noUnguardedSchedule, {
  valid: [
    { settings, code: settler('while (0)') },
    { settings, code: settler('while (1)', '    if (await drained()) break;') },
  ],
  invalid: [
    { settings, code: settler('while (1)'), errors: atHead(3) },
    { settings, code: settler('while (true)'), errors: atHead(3) },
    { settings, code: settler('for (;;)'), errors: atHead(3) },
  ],
});
