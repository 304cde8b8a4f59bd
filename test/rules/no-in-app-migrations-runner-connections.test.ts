// The bare verb and what the run connects with (`migrateWithPgConfig(config)`,
// `migrateUsingClient(client)`), imported from a module named for migrations: a runner, as
// `migrate(db)` is. From a module named otherwise with nothing of a database in view, or in test
// code, it is not.
import { ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];

/** A service's start file: runs `call` (imported from `from`) at its top level, then starts its server. */
const start = (imported: string, from: string, call: string) =>
  lines(
    `import { ${imported} } from '${from}';`,
    "import pg from 'pg';",
    "import { createServer } from 'node:http';",
    `await ${call};`,
    'createServer(handle).listen(8080);',
  );

ruleTester.run('no-in-app-migrations (runner names for what the run connects with)', rule, {
  valid: [
    // a module named otherwise, and no database handle handed in
    { code: start('migrateWithPgConfig', '../lib/settings.js', 'migrateWithPgConfig({ file: "x.json" })'), filename: 'bin/service.js' },
    // the same call in the module's own tests: no replica runs it
    { code: start('migrateWithPgConfig', '../lib/migrate.js', 'migrateWithPgConfig(config)'), filename: 'test/service.test.js' },
  ],
  invalid: [
    {
      code: start('migrateWithPgConfig', '../lib/migrate.js', 'migrateWithPgConfig({ connectionString: DATABASE_URL })'),
      filename: 'bin/service.js',
      errors: [{ messageId: 'schemaWriteCall', line: 4, column: 7 }],
    },
    {
      code: start('migrateUsingClient', '../db/migrations.js', 'migrateUsingClient(client)'),
      filename: 'bin/service.js',
      errors: [{ messageId: 'schemaWriteCall', line: 4, column: 7 }],
    },
  ],
});
