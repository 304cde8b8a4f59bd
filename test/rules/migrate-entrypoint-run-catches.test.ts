// migrate-entrypoint's swallowed failures: only a handler of the run itself counts — a `catch`
// whose `try` holds the migration (a migrator run, a call named for a run, a call that sends schema
// DDL, or a function of this file that makes one). A helper's catch, or a best-effort step beside
// the run in the same function, handles its own question; with no migration call in view (a data
// copy whose steps the rule cannot name) no catch is taken for the run's.
import { ruleTester } from './rule-tester.js';
import { migrateEntrypoint, type MigrateEntrypointMessageIds } from '../../rules/migrate-entrypoint.js';

const lines = (...l: string[]) => l.join('\n');
const rule = migrateEntrypoint as unknown as Parameters<typeof ruleTester.run<MigrateEntrypointMessageIds, readonly unknown[]>>[1];
const ENTRY = 'scripts/copy-files.mjs';
const settings = { 'replica-guard': { migrateEntrypoints: [ENTRY] } };
const noLockAt = (line: number, column: number) => ({ messageId: 'noLock' as const, line, column });

/** A helper that catches its own error, then `run()` holding `body`, started at the top level. */
const script = (...body: string[]) =>
  lines(
    "import { statSync } from 'node:fs';",
    "import { open, notify } from './store.mjs';",
    'function exists(path) {',
    '  try {',
    '    return statSync(path).isFile();',
    '  } catch {',
    '    return false;',
    '  }',
    '}',
    'async function run() {',
    '  const db = await open(process.env.TARGET_URL);',
    ...body.map((line) => `  ${line}`),
    '}',
    'await run();',
  );

/** `run()` sending DDL, its only top-level call in a `try` whose catch holds `handler`. */
const runInTry = (...handler: string[]) =>
  lines(
    "import { open } from './store.mjs';",
    'async function run() {',
    '  const db = await open(process.env.TARGET_URL);',
    "  await db.query('CREATE TABLE IF NOT EXISTS cards (id text primary key)');",
    '}',
    'try {',
    '  await run();',
    '} catch (error) {',
    ...handler.map((line) => `  ${line}`),
    '}',
  );

ruleTester.run('migrate-entrypoint (catches of the run)', rule, {
  valid: [],
  invalid: [
    // no migration call in view: the helper's catch and the best-effort notice are not the run's
    {
      code: script(
        "await db.copy('cards');",
        "if (exists('/data/checkpoint.json')) console.log('resuming');",
        'try {',
        '  await notify();',
        '} catch {}',
      ),
      filename: ENTRY,
      settings,
      errors: [noLockAt(1, 1)],
    },
    // the DDL sent in a `try` whose catch only logs: the run's failure is swallowed
    {
      code: script(
        'try {',
        "  await db.query('CREATE INDEX IF NOT EXISTS cards_board ON cards (board_id)');",
        '} catch (error) {',
        '  console.error(error);',
        '}',
      ),
      filename: ENTRY,
      settings,
      errors: [noLockAt(13, 11), { messageId: 'swallowedFailure', line: 14, column: 5 }],
    },
    // the same DDL outside the `try`: the notice's catch beside it is its own
    {
      code: script(
        'await db.query(`ALTER TABLE cards ADD COLUMN IF NOT EXISTS archived boolean`);',
        'try {',
        '  await notify();',
        '} catch {}',
      ),
      filename: ENTRY,
      settings,
      errors: [noLockAt(12, 9)],
    },
    // `run()` holds the DDL: a catch around the top-level call is the run's
    {
      code: runInTry('console.error(error);'),
      filename: ENTRY,
      settings,
      errors: [noLockAt(4, 9), { messageId: 'swallowedFailure', line: 8, column: 3 }],
    },
    // the only top-level run inside a `try` whose catch exits 1: the run is still there, with no lock
    {
      code: runInTry('console.error(error);', 'process.exit(1);'),
      filename: ENTRY,
      settings,
      errors: [noLockAt(4, 9)],
    },
  ],
});
