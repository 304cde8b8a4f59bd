// A migrate script named for migrations but not `migrate` (`migration.ts`, `run-db-migrations.ts`),
// linted alone: it is the service's entrypoint when its own top level runs and ends — the
// migrator's chain closes its client in `.finally` (or `.then`), or the file exits. A module of that
// name that only declares what the server calls, or that keeps its client open, is not a script.
import { ruleTester } from './rule-tester.js';
import { migrateEntrypoint, type MigrateEntrypointMessageIds } from '../../rules/migrate-entrypoint.js';

const lines = (...l: string[]) => l.join('\n');
const rule = migrateEntrypoint as unknown as Parameters<typeof ruleTester.run<MigrateEntrypointMessageIds, readonly unknown[]>>[1];
const noLockAt = (line: number, column: number) => ({ messageId: 'noLock' as const, line, column });

const HEAD = lines(
  "import { drizzle } from 'drizzle-orm/postgres-js';",
  "import { migrate } from 'drizzle-orm/postgres-js/migrator';",
  "import postgres from 'postgres';",
  'const sql = postgres(process.env.POSTGRES_MIGRATE_URL, { max: 1 });',
  'const db = drizzle(sql);',
);

/** The migrator's chain at the top level, its last link `tail`. */
const chain = (tail: string) =>
  lines(
    HEAD,
    "await migrate(db, { migrationsFolder: 'drizzle' })",
    "  .then(() => console.log('migrated'))",
    "  .catch((error) => console.log('migration failed', error))",
    `  ${tail};`,
  );

ruleTester.run('migrate-entrypoint (scripts named for migrations)', rule, {
  valid: [
    // keeps its client open: the module of a server that migrates as it starts (no-in-app-migrations' case)
    { code: chain(".finally(() => console.log('done'))"), filename: 'apps/web/migration.ts' },
    // only declares the run
    {
      code: lines(HEAD, 'export async function migrations() {', "  await migrate(db, { migrationsFolder: 'drizzle' });", '}'),
      filename: 'apps/web/migrations.ts',
    },
  ],
  invalid: [
    // named for something else, or only its folder named for migrations: a script that runs the migrator once
    // and closes its client is a migrate entrypoint whatever its name (unnamed-scripts.ts)
    ...['apps/web/upgrade.ts', 'apps/web/migration-tools/upgrade.ts', 'C:\\app\\migrations\\upgrade.ts'].map((filename) => ({
      code: chain('.finally(() => sql.end())'),
      filename,
      errors: [noLockAt(6, 7), { messageId: 'swallowedFailure' as const, line: 8, column: 10 }],
    })),
    {
      code: chain('.finally(() => sql.end())'),
      filename: 'apps/web/migration.ts',
      errors: [noLockAt(6, 7), { messageId: 'swallowedFailure', line: 8, column: 10 }],
    },
    {
      code: chain('.finally(() => { sql.end(); })'),
      filename: 'src/run-db-migrations.ts',
      errors: [noLockAt(6, 7), { messageId: 'swallowedFailure', line: 8, column: 10 }],
    },
    // camel case, and a Windows path
    {
      code: chain('.finally(() => sql.end())'),
      filename: 'src/runDbMigrations.ts',
      errors: [noLockAt(6, 7), { messageId: 'swallowedFailure', line: 8, column: 10 }],
    },
    {
      code: chain('.finally(() => sql.end())'),
      filename: 'C:\\app\\src\\migration.ts',
      errors: [noLockAt(6, 7), { messageId: 'swallowedFailure', line: 8, column: 10 }],
    },
  ],
});
