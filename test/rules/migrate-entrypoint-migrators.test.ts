import { ruleTester } from './rule-tester.js';
import { migrateEntrypoint, type MigrateEntrypointMessageIds } from '../../rules/migrate-entrypoint.js';

// A migrator that takes its own cross-process lock (MIGRATOR_LOCKS) needs no advisory lock around it.
const lines = (...l: string[]) => l.join('\n');
const rule = migrateEntrypoint as unknown as Parameters<typeof ruleTester.run<MigrateEntrypointMessageIds, readonly unknown[]>>[1];
const ENTRY = 'src/cmd/migrate.ts';
const noLockAt = (line: number, column: number) => [{ messageId: 'noLock' as const, line, column }];

const KNEX = [
  "import knex from 'knex';",
  "const db = knex({ client: 'pg', connection: process.env.POSTGRES_MIGRATE_URL });",
  'await db.migrate.latest();',
  'await db.destroy();',
];
const PG_MIGRATE = (options: string) =>
  lines(
    "import { runner } from 'node-pg-migrate';",
    `await runner({ databaseUrl: process.env.POSTGRES_MIGRATE_URL, dir: 'migrations', direction: 'up', migrationsTable: 'pgmigrations'${options} });`,
  );

const SLONIK = [
  "import { SlonikMigrator } from '@slonik/migrator';",
  "import { createPool } from 'slonik';",
  'const slonik = await createPool(process.env.POSTGRES_MIGRATE_URL!);',
  "const migrator = new SlonikMigrator({ migrationsPath: 'migrations', migrationTableName: 'migration', slonik, logger: console });",
];

// An entrypoint by the project's settings, not by its name: its findings do not wait for evidence of a run.
const RUN_DB = 'packages/run-db/scripts/migrate.mjs';
const RUN_DB_ENTRY = { 'replica-guard': { migrateEntrypoints: [RUN_DB] } };
const SPAWNED_PRISMA = (mode: string) =>
  lines(
    "import { spawnSync } from 'node:child_process';",
    "import { readFileSync } from 'node:fs';",
    'function fromEnvFile(key) {',
    '  try {',
    "    const found = readFileSync('.env', 'utf8').split('\\n').find((l) => l.startsWith(`${key}=`));",
    '    return found?.slice(key.length + 1);',
    '  } catch {',
    '    return undefined;',
    '  }',
    '}',
    `const mode = ${mode};`,
    "const url = process.env.DIRECT_URL ?? fromEnvFile('DIRECT_URL');",
    "const result = spawnSync('prisma', ['migrate', mode, '--schema', 'prisma/schema.prisma'], { stdio: 'inherit', env: { ...process.env, DATABASE_URL: url } });",
    'process.exit(result.status ?? 1);',
  );

ruleTester.run('migrate-entrypoint (migrators that lock)', rule, {
  valid: [
    // @slonik/migrator holds an advisory lock around its runs, whoever runs the instance
    { code: lines(...SLONIK, 'migrator.runAsCLI();'), filename: ENTRY },
    // knex: the knex_migrations_lock row
    { code: lines(...KNEX), filename: ENTRY },
    // node-pg-migrate: its own advisory lock, default and default-import forms
    { code: PG_MIGRATE(''), filename: ENTRY },
    { code: PG_MIGRATE(', noLock: false'), filename: ENTRY },
    {
      code: lines(
        "import migrate from 'node-pg-migrate';",
        "await migrate({ databaseUrl: process.env.POSTGRES_MIGRATE_URL, dir: 'migrations', direction: 'up' });",
      ),
      filename: ENTRY,
    },
    // Prisma spawned with its arguments in a list, the subcommand a choice the file spells out: the
    // deploy branch locks itself, and a helper's own catch (reading an env file) is not the run's
    {
      code: SPAWNED_PRISMA("process.argv[2] === 'status' ? 'status' : 'deploy'"),
      filename: RUN_DB,
      settings: RUN_DB_ENTRY,
    },
    { code: SPAWNED_PRISMA("process.env.MIGRATE_MODE ?? 'deploy'"), filename: RUN_DB, settings: RUN_DB_ENTRY },
    // Prisma: `migrate deploy` takes an advisory lock
    {
      code: lines("import { execSync } from 'node:child_process';", "execSync('npx prisma migrate deploy', { stdio: 'inherit' });"),
      filename: ENTRY,
    },
    // Kysely: the Migrator holds a transaction advisory lock
    {
      code: lines(
        "import { Kysely, Migrator, PostgresDialect } from 'kysely';",
        'const migrator = new Migrator({ db, provider });',
        'const { error } = await migrator.migrateToLatest();',
        'if (error) process.exit(1);',
      ),
      filename: ENTRY,
    },
    // graphile-migrate and postgres-migrations lock by themselves
    {
      code: lines("import { migrate } from 'graphile-migrate';", 'await migrate({ connectionString: process.env.POSTGRES_MIGRATE_URL });'),
      filename: ENTRY,
    },
    {
      code: lines("const { migrate } = require('postgres-migrations');", "migrate({ client }, 'migrations').catch(() => process.exit(1));"),
      filename: 'scripts/migrate.js',
      languageOptions: { sourceType: 'commonjs' } as never,
    },
  ],
  invalid: [
    // beside a Drizzle run, which takes no lock
    {
      code: lines(
        ...SLONIK,
        "import { migrate } from 'drizzle-orm/node-postgres/migrator';",
        "import { drizzle } from 'drizzle-orm/node-postgres';",
        'await migrator.up();',
        "await migrate(drizzle(process.env.POSTGRES_MIGRATE_URL!), { migrationsFolder: './drizzle' });",
      ),
      filename: ENTRY,
      errors: noLockAt(8, 7),
    },
    // the lock turned off
    { code: PG_MIGRATE(', noLock: true'), filename: ENTRY, errors: noLockAt(2, 7) },
    // TypeORM: runMigrations takes no lock
    {
      code: lines(
        "import { AppDataSource } from '../data-source';",
        'await AppDataSource.initialize();',
        'await AppDataSource.runMigrations();',
      ),
      filename: ENTRY,
      errors: noLockAt(3, 7),
    },
    // Drizzle: migrate() reads its journal unlocked
    {
      code: lines("import { migrate } from 'drizzle-orm/node-postgres/migrator';", "await migrate(db, { migrationsFolder: 'drizzle' });"),
      filename: ENTRY,
      errors: noLockAt(2, 7),
    },
    // Umzug: no lock
    {
      code: lines(
        "import { Umzug, SequelizeStorage } from 'umzug';",
        'const umzug = new Umzug({ migrations: { glob: "migrations/*.js" }, logger: console });',
        'await umzug.up();',
      ),
      filename: ENTRY,
      errors: noLockAt(3, 7),
    },
    // MikroORM: Umzug underneath, no lock
    {
      code: lines(
        "import { MikroORM } from '@mikro-orm/postgresql';",
        'const orm = await MikroORM.init();',
        'await orm.getMigrator().up();',
      ),
      filename: ENTRY,
      errors: noLockAt(3, 7),
    },
    // Prisma's dev command is not the deploy one, and `migrate.latest` on a non-knex receiver is no migrator
    {
      code: lines("import { execSync } from 'node:child_process';", "execSync('npx prisma db push');"),
      filename: ENTRY,
      errors: noLockAt(1, 1),
    },
    // the same list, choosing between status and the dev command, which takes no lock for the deploy
    {
      code: SPAWNED_PRISMA("process.argv[2] === 'status' ? 'status' : 'dev'"),
      filename: RUN_DB,
      settings: RUN_DB_ENTRY,
      // the helper's catch (reading an env file) is not the run's, whichever subcommand runs
      errors: noLockAt(1, 1),
    },
    // one migrator that locks and one that does not: the entrypoint still needs its own lock
    {
      code: lines(
        ...KNEX,
        "import { migrate } from 'drizzle-orm/node-postgres/migrator';",
        "await migrate(db2, { migrationsFolder: 'drizzle' });",
      ),
      filename: ENTRY,
      errors: noLockAt(3, 7),
    },
  ],
});
