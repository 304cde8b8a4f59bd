// migrate-entrypoint: a failure returned as a value. A `catch` that returns `false` hands the
// failure to its caller; when every caller tests the value and exits 1 on it (directly, or by
// handing the `false` on through functions of the file), the run's failure reaches a non-zero exit.
// A caller that drops the value, or tests it and only logs, still swallows it.
import { ruleTester } from './rule-tester.js';
import { migrateEntrypoint, type MigrateEntrypointMessageIds } from '../../rules/migrate-entrypoint.js';

const lines = (...l: string[]) => l.join('\n');
const rule = migrateEntrypoint as unknown as Parameters<typeof ruleTester.run<MigrateEntrypointMessageIds, readonly unknown[]>>[1];
const ENTRY = 'scripts/apply-ddl.ts';
const settings = { 'replica-guard': { migrateEntrypoints: [ENTRY] } };
const noLockAt = (line: number, column: number) => ({ messageId: 'noLock' as const, line, column });

/** `async function name(params) { try { …body; return true } catch { log; return false } }`. */
const returningFalse = (signature: string, ...body: string[]) => [
  `async function ${signature} {`,
  '  try {',
  ...body.map((line) => `    ${line}`),
  '    return true;',
  '  } catch (error) {',
  "    console.error('apply failed', error);",
  '    return false;',
  '  }',
  '}',
];

/** `migrateAll()` whose catch returns `false`, then `tail` at the top level. */
const script = (...tail: string[]) =>
  lines(
    "import { warehouse } from './warehouse';",
    ...returningFalse(
      'migrateAll(): Promise<boolean>',
      "await warehouse.exec('CREATE TABLE IF NOT EXISTS visits (id UInt64) ENGINE = MergeTree ORDER BY id');",
    ),
    ...tail,
  );
/** The `catch` of `migrateAll` (line 6). */
const swallowed = { messageId: 'swallowedFailure' as const, line: 6, column: 5 };

/** A step function whose catch returns `false`, handed on by `migrateAll` with `if (!ok) return false`. */
const handedOn = (...tail: string[]) =>
  lines(
    "import { warehouse } from './warehouse';",
    ...returningFalse(
      'migrateOne(column: string)',
      'await warehouse.exec(`ALTER TABLE visits ADD COLUMN IF NOT EXISTS ${column} String`);',
      "await warehouse.insert({ table: 'applied', values: [{ column }] });",
    ),
    ...returningFalse(
      'migrateAll(columns: string[])',
      "await warehouse.exec('CREATE TABLE IF NOT EXISTS applied (sql String) ENGINE = MergeTree ORDER BY sql');",
      'for (const column of columns) {',
      '  const ok = await migrateOne(column);',
      '  if (!ok) return false;',
      '}',
    ),
    ...tail,
  );

ruleTester.run('migrate-entrypoint (failures returned as values)', rule, {
  valid: [],
  invalid: [
    // `.then((ok) => { if (!ok) process.exit(1) })`: the `false` ends the run with 1
    {
      code: script('migrateAll().then((ok) => {', '  if (!ok) process.exit(1);', '  process.exit(0);', '});'),
      filename: ENTRY,
      settings,
      errors: [noLockAt(11, 1)],
    },
    // `if (ok) … else process.exit(1)` in the handler
    {
      code: script(
        'migrateAll().then((done) => {',
        '  if (done) {',
        "    console.log('applied');",
        '    process.exit(0);',
        '  } else {',
        '    process.exit(1);',
        '  }',
        '});',
      ),
      filename: ENTRY,
      settings,
      errors: [noLockAt(11, 1)],
    },
    // `const ok = await migrateAll(); if (!ok) process.exitCode = 1`
    {
      code: script('const ok = await migrateAll();', 'if (!ok) {', '  process.exitCode = 1;', '}'),
      filename: ENTRY,
      settings,
      errors: [noLockAt(11, 18)],
    },
    // `if (!(await migrateAll())) process.exit(1)`
    {
      code: script('if (!(await migrateAll())) process.exit(1);'),
      filename: ENTRY,
      settings,
      errors: [noLockAt(11, 13)],
    },
    // handed on through `if (!ok) return false` to a top level that exits 1
    {
      code: handedOn("migrateAll(['referrer']).then((ok) => {", '  if (!ok) process.exit(1);', '});'),
      filename: ENTRY,
      settings,
      errors: [noLockAt(25, 1)],
    },
    // the value dropped: `.then(() => process.exit(0))` exits 0 after a failure
    {
      code: script('migrateAll().then(() => process.exit(0));'),
      filename: ENTRY,
      settings,
      errors: [swallowed, noLockAt(11, 1)],
    },
    // the value tested, but a failure only logs
    {
      code: script('migrateAll().then((ok) => {', "  if (!ok) console.warn('some statements failed');", '  process.exit(0);', '});'),
      filename: ENTRY,
      settings,
      errors: [swallowed, noLockAt(11, 1)],
    },
    // the exit on the success branch only: `if (ok) process.exit(1)` is not a failure's exit
    {
      code: script(
        'const ok = await migrateAll();',
        'if (ok) {',
        "  console.log('done');",
        '} else {',
        "  console.log('nothing to do');",
        '}',
      ),
      filename: ENTRY,
      settings,
      errors: [swallowed, noLockAt(11, 18)],
    },
    // one caller exits on `false`, another drops it
    {
      code: script('if (!(await migrateAll())) process.exit(1);', 'await migrateAll();'),
      filename: ENTRY,
      settings,
      errors: [swallowed, noLockAt(11, 13)],
    },
    // the catch returns `true`: no failure value at all
    {
      code: lines(
        "import { warehouse } from './warehouse';",
        'async function migrateAll() {',
        '  try {',
        "    await warehouse.exec('ALTER TABLE visits ADD COLUMN IF NOT EXISTS ua String');",
        '  } catch (error) {',
        '    console.error(error);',
        '    return true;',
        '  }',
        '  return true;',
        '}',
        'if (!(await migrateAll())) process.exit(1);',
      ),
      filename: ENTRY,
      settings,
      errors: [{ messageId: 'swallowedFailure', line: 5, column: 5 }, noLockAt(11, 13)],
    },
    // handed on, but the top level drops it: both catches swallow
    {
      code: handedOn("await migrateAll(['referrer']);"),
      filename: ENTRY,
      settings,
      errors: [
        { messageId: 'swallowedFailure', line: 7, column: 5 },
        { messageId: 'swallowedFailure', line: 20, column: 5 },
        noLockAt(25, 7),
      ],
    },
  ],
});
