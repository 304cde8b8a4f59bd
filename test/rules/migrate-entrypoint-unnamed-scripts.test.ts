// A migrate script under another name (`tools/apply-steps.ts`, a root `prepare-tables.js`, a
// container's set-up step): its own top level runs once and ends the process, starts no server,
// and runs migrations. It is checked as a migrate entrypoint found by its name. A chore's script
// (`seed-demo.js`), a server that also migrates (no-in-app-migrations' finding) and a one-shot
// script that migrates nothing are not entrypoints.
import { ruleTester } from './rule-tester.js';
import { migrateEntrypoint, type MigrateEntrypointMessageIds } from '../../rules/migrate-entrypoint.js';

const lines = (...l: string[]) => l.join('\n');
const rule = migrateEntrypoint as unknown as Parameters<typeof ruleTester.run<MigrateEntrypointMessageIds, readonly unknown[]>>[1];
const noLockAt = (line: number, column: number) => ({ messageId: 'noLock' as const, line, column });
const swallowedAt = (line: number, column: number) => ({ messageId: 'swallowedFailure' as const, line, column });

/** A hand-written runner that sends the DDL of its steps, started at the top level; its handler exits in both branches. */
const APPLY_STEPS = lines(
  "import { warehouse } from '../store/warehouse.js';",
  '',
  'runWarehouseMigrations().then((done) => {',
  '  if (done) {',
  "    console.log('steps applied');",
  '    process.exit(0);',
  '  } else {',
  "    console.error('steps failed');",
  '    process.exit(1);',
  '  }',
  '});',
  '',
  'async function runWarehouseMigrations() {',
  "  await warehouse.command({ query: 'CREATE TABLE IF NOT EXISTS applied_steps (name String) ENGINE = MergeTree ORDER BY name' });",
  '  return true;',
  '}',
);

/** Sequelize's `sync()` on a client another module builds, run once; both handlers exit with code 0. */
const syncOnce = (name: string) =>
  lines(
    "const store = require('./store');",
    '',
    'store.sequelize.sync().then(',
    '  () => {',
    "    console.log('tables ready');",
    '    process.exit();',
    '  },',
    '  (error) => {',
    `    console.log('${name} failed', error);`,
    '    process.exit();',
    '  },',
    ');',
  );

ruleTester.run('migrate-entrypoint (scripts that migrate under another name)', rule, {
  valid: [
    // a chore's script by its name
    { code: syncOnce('seeding'), filename: 'seed-demo.js' },
    // a set-up script that also seeds
    { code: APPLY_STEPS.replace('  return true;', '  await loadSeedRows();\n  return true;'), filename: 'tools/apply-steps.ts' },
    // a server that also migrates: not a one-shot script
    {
      code: lines(
        "const store = require('./store');",
        "const app = require('./app');",
        'store.sequelize.sync().then(() => app.listen(3000));',
      ),
      filename: 'boot.js',
    },
    // a one-shot script that migrates nothing (the word in its text aside)
    {
      code: lines(
        "import { warehouse } from '../store/warehouse.js';",
        'countRows().then((n) => { console.log(`${n} rows since the last migration`); process.exit(0); });',
        "async function countRows() { return warehouse.query({ query: 'SELECT count() FROM page_views' }); }",
      ),
      filename: 'tools/count-rows.ts',
    },
  ],
  invalid: [
    // a bare script: loads, then the run, its handlers only log
    {
      code: lines(
        "const { sequelize } = require('./store');",
        "sequelize.sync({ alter: true }).then(() => console.log('synced')).catch((e) => console.log(e));",
      ),
      filename: 'store/prepare.js',
      errors: [noLockAt(2, 1), swallowedAt(2, 73)],
    },
    { code: APPLY_STEPS, filename: 'tools/apply-steps.ts', errors: [noLockAt(3, 1)] },
    { code: syncOnce('sync'), filename: 'prepare-tables.js', errors: [noLockAt(3, 1), swallowedAt(8, 3)] },
  ],
});
