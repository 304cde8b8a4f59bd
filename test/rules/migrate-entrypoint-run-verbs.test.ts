// Migrate scripts whose migrator is built in another module: a run verb on a receiver named for a
// migrator (`umzug.up()`, `schemaMigrator.migrateToLatest()`) is the run; and scripts named for the run they
// make (`migrateLatest.ts`, `migrate-up.js`).
import { ruleTester } from './rule-tester.js';
import { migrateEntrypoint, type MigrateEntrypointMessageIds } from '../../rules/migrate-entrypoint.js';

const lines = (...l: string[]) => l.join('\n');
const rule = migrateEntrypoint as unknown as Parameters<typeof ruleTester.run<MigrateEntrypointMessageIds, readonly unknown[]>>[1];
const noLock = (line: number, column: number) => ({ messageId: 'noLock' as const, line, column });
const swallowed = (line: number, column: number) => ({ messageId: 'swallowedFailure' as const, line, column });

const UMZUG_SCRIPT = lines(
  "import StoreSetup from '.';",
  '(async () => {',
  "  const umzug = new StoreSetup('schema').build();",
  '  await umzug.up();',
  '})();',
);
const CHAIN_SCRIPT = lines(
  "import { schemaMigrator } from './schema-migrator';",
  'schemaMigrator',
  '  .migrateToLatest()',
  '  .then((result) => console.log(result))',
  '  .catch((error) => console.error(error))',
  '  .finally(() => process.exit());',
);

ruleTester.run('migrate-entrypoint (run verbs on a migrator built elsewhere)', rule, {
  valid: [
    // the same verb on something that is not a migrator: a script only named like one, which writes no schema
    {
      code: lines("import { cacheFor } from '.';", '(async () => {', "  const cache = cacheFor('pages');", '  await cache.up();', '})();'),
      filename: 'src/store/runner/migrate.ts',
    },
    // named for a tool that reports, not the run
    { code: CHAIN_SCRIPT.replace('migrateToLatest', 'getMigrations'), filename: 'db/migrate-status.ts' },
    // the same chain in a file named for seeding
    { code: CHAIN_SCRIPT, filename: 'db/seedUp.ts' },
  ],
  invalid: [
    // a `migrate*` module of a database folder not named for the run: a script that runs the migrator once and
    // exits is a migrate entrypoint whatever its name (unnamed-scripts.ts)
    { code: CHAIN_SCRIPT, filename: 'database/migrate-all.ts', errors: [noLock(2, 1), swallowed(5, 10)] },
    { code: UMZUG_SCRIPT, filename: 'src/store/runner/migrate.ts', errors: [noLock(4, 9)] },
    // always exits 0: the failure is only logged, then `process.exit()` in `finally`
    { code: CHAIN_SCRIPT, filename: 'schema/migrate-up.ts', errors: [noLock(2, 1), swallowed(5, 10)] },
    { code: CHAIN_SCRIPT, filename: 'tools/migrateLatest.ts', errors: [noLock(2, 1), swallowed(5, 10)] },
    { code: CHAIN_SCRIPT, filename: 'src/migrate-latest.ts', errors: [noLock(2, 1), swallowed(5, 10)] },
  ],
});
