// Shapes that say "migration" without being the server's schema run, and the true shapes beside
// them: operator commands, names of data moves, a URL only printed, a helper's own catch, a
// floating main() under Node's default exit on unhandled rejections, migrators that lock
// themselves or speak to SQLite/libSQL, and a data script named like an entrypoint.
import { ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';
import { migrateEntrypoint, type MigrateEntrypointMessageIds } from '../../rules/migrate-entrypoint.js';

/** Settings that name the file a migrate entrypoint (not found by its name alone): its URL is checked. */
const namedEntrypoint = (filename: string) => ({ 'replica-guard': { migrateEntrypoints: [filename] } });

const lines = (...l: string[]) => l.join('\n');
const inApp = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const entry = migrateEntrypoint as unknown as Parameters<typeof ruleTester.run<MigrateEntrypointMessageIds, readonly unknown[]>>[1];
const ENTRY = 'src/cmd/migrate.ts';

const DRIZZLE = [
  "import { migrate } from 'drizzle-orm/node-postgres/migrator';",
  "import { drizzle } from 'drizzle-orm/node-postgres';",
  'const db = drizzle(process.env.POSTGRES_MIGRATE_URL!);',
];

ruleTester.run('no-in-app-migrations (operator commands and names)', inApp, {
  valid: [
    // a yargs command handler that an operator runs
    {
      code: lines(
        "import type { Argv } from 'yargs';",
        "import { migrateDb } from './db';",
        'export function commands(cli: Argv) {',
        "  return cli.command('migrate', 'apply migrations', {}, async () => { await migrateDb(); });",
        '}',
      ),
      filename: 'src/admin/commands.ts',
    },
    // an interactive install wizard
    {
      code: lines(
        "import enquirer from 'enquirer';",
        "import { runMigrations } from '../lib/migrations';",
        'export async function install() {',
        "  const answers = await enquirer.prompt({ type: 'input', name: 'host', message: 'Database host' });",
        '  await runMigrations(answers);',
        '}',
      ),
      filename: 'src/bin/install.ts',
    },
    // data moves and business decisions named with "migration"
    { code: 'export async function changeRole(db: Db) { await db.migrateMemberTier(1, 2); }', filename: 'src/users.ts' },
    // without typeorm imported, `undoLastMigration()` is not known to be TypeORM's
    { code: 'export async function revert(executor: Executor) { await executor.undoLastMigration(); }', filename: 'src/revert.ts' },
    { code: 'export const target = (org: Org, db: Db) => planRegionMigration(org, db);', filename: 'src/compute.ts' },
    { code: "import { migrateLegacySettings } from './settings';\nawait migrateLegacySettings(db);", filename: 'src/boot.ts' },
    // a failure tail on a data move's name does not make it a schema run
    { code: 'await service.ctx.db.migrateUserOrThrow(user);', filename: 'src/boot.ts' },
    // …nor a runner's name with the tail on a receiver not named like the database (a per-host
    // file's migrator, a helper's result): the tail is the only new evidence, the handle the other
    { code: 'await migrator.migrateToLatestOrThrow();\nawait getMigrator(this.db).migrateToLatestOrThrow();', filename: 'src/boot.ts' },
  ],
  invalid: [
    // a runner named for how it fails (`…OrThrow`) on a database handle several properties deep, under a config flag
    {
      code: lines(
        'const service = await Service.create(cfg);',
        'if (service.ctx.cfg.db.migrate) {',
        '  await service.ctx.db.migrateToLatestOrThrow();',
        '}',
        'await service.start();',
      ),
      filename: 'services/sync/index.ts',
      errors: [{ messageId: 'schemaWriteCall', line: 3, column: 9 }],
    },
    // a server start file that also parses arguments with commander
    {
      code: lines(
        "import { program } from 'commander';",
        "import express from 'express';",
        "import { migrateDb } from './db';",
        'program.parse();',
        'await migrateDb();',
        'express().listen(3000);',
      ),
      filename: 'src/server.ts',
      errors: [{ messageId: 'schemaWriteCall', line: 5, column: 7 }],
    },
    // TypeORM's revert is known by the catalogue, not by its name
    {
      code: "import type { DataSource } from 'typeorm';\nexport async function revert(dataSource: DataSource) { await dataSource.undoLastMigration(); }",
      filename: 'src/admin/revert.ts',
      errors: [{ messageId: 'schemaWriteCall', line: 2, column: 62 }],
    },
    // the runner shapes still count by name
    {
      code: "import { migrate } from './bootstrap/migrate.js';\nexport async function start(modules: string[]) { await migrate(modules); }",
      filename: 'src/lib/start.ts',
      errors: [{ messageId: 'schemaWriteCall', line: 2, column: 56 }],
    },
    { code: 'await migrateUp(db);', filename: 'src/worker.ts', errors: [{ messageId: 'schemaWriteCall', line: 1, column: 7 }] },
    // a runner named for its role, imported from a module named for migrations, at a worker's start
    {
      code: "import { migrationWorker } from './workers/migrationWorker';\nexport async function init() { await migrationWorker(); }",
      filename: 'src/worker.ts',
      errors: [{ messageId: 'schemaWriteCall', line: 2, column: 38 }],
    },
  ],
});

ruleTester.run('migrate-entrypoint (what is not the migration run)', entry, {
  valid: [
    // the app URL only printed in a banner; the migrator connects with the migrate URL
    {
      code: lines(
        "import knex from 'knex';",
        'console.log(`database: ${process.env.DATABASE_URL}`);',
        "printBox('Environment', [`POSTGRES: ${process.env.DATABASE_URL ?? ''}`]);",
        "const db = knex({ client: 'pg', connection: process.env.POSTGRES_MIGRATE_URL });",
        'await db.migrate.latest();',
      ),
      filename: ENTRY,
    },
    // a helper's own catch is not a failure handler of the run
    {
      code: lines(
        "import { access } from 'node:fs/promises';",
        "import knex from 'knex';",
        'async function exists(dir: string) {',
        '  try { await access(dir); return true; } catch { return false; }',
        '}',
        "const db = knex({ client: 'pg', connection: process.env.POSTGRES_MIGRATE_URL });",
        "if (await exists('migrations')) await db.migrate.latest();",
      ),
      filename: ENTRY,
    },
    // Kysely's Migrator takes its own lock, also when a command-line helper calls it
    {
      code: lines(
        "import { Kysely, Migrator, FileMigrationProvider } from 'kysely';",
        "import { run } from 'kysely-migration-cli';",
        'const db = new Kysely<unknown>({ dialect });',
        'const migrator = new Migrator({ db, provider: new FileMigrationProvider({ fs, path, migrationFolder }) });',
        'run(db, migrator, migrationFolder);',
      ),
      filename: ENTRY,
    },
    // libSQL / SQLite: no PostgreSQL advisory lock to take
    {
      code: lines("import { migrate } from 'drizzle-orm/libsql/migrator';", "await migrate(db, { migrationsFolder: 'drizzle' });"),
      filename: ENTRY,
    },
    // a one-off data script named like an entrypoint: renames rows, no migrator, no DDL
    {
      code: lines(
        "import knex from 'knex';",
        'const db = knex(config);',
        'async function fixMigrationNames() {',
        "  const rows = await db('knex_migrations').where('name', 'like', '%.js');",
        "  for (const row of rows) await db('knex_migrations').where('id', row.id).update({ name: row.name.replace('.js', '.ts') });",
        '}',
        'fixMigrationNames();',
      ),
      filename: 'scripts/migrate-names.ts',
    },
  ],
  invalid: [
    // the app URL reaching the migrator's connection
    {
      code: lines(
        "import knex from 'knex';",
        "const db = knex({ client: 'pg', connection: process.env.DATABASE_URL });",
        'await db.migrate.latest();',
      ),
      filename: ENTRY,
      settings: namedEntrypoint(ENTRY),
      errors: [{ messageId: 'appUrl', line: 2, column: 45 }],
    },
    // the catch around the migrator swallows its failure
    {
      code: lines(...DRIZZLE, "try { await migrate(db, { migrationsFolder: 'drizzle' }); } catch (error) { console.error(error); }"),
      filename: ENTRY,
      errors: [
        { messageId: 'noLock', line: 4, column: 13 },
        { messageId: 'swallowedFailure', line: 4, column: 61 },
      ],
    },
    // `.catch(log)` on the migrator's promise
    {
      code: lines(...DRIZZLE, "migrate(db, { migrationsFolder: 'drizzle' }).catch((error) => console.error(error));"),
      filename: ENTRY,
      errors: [
        { messageId: 'noLock', line: 4, column: 1 },
        { messageId: 'swallowedFailure', line: 4, column: 52 },
      ],
    },
  ],
});
