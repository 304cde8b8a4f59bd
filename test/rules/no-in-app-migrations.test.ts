import { expect, test } from 'vitest';
import { Linter } from 'eslint';
import tsParser from '@typescript-eslint/parser';
import { jsRuleTester, ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsFacts, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';
import type { Finding } from '../../rules/utils/create-rule.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const COMMONJS = { sourceType: 'commonjs' } as never;

const option = (line: number, column: number) => ({ messageId: 'schemaWriteOption' as const, line, column });
const call = (line: number, column: number) => ({ messageId: 'schemaWriteCall' as const, line, column });
const command = (line: number, column: number) => ({ messageId: 'schemaWriteCommand' as const, line, column });
const flag = (line: number, column: number) => ({ messageId: 'migrationFlag' as const, line, column });

ruleTester.run('no-in-app-migrations', rule, {
  valid: [
    // TypeORM with schema writes off
    lines(
      "import { DataSource } from 'typeorm';",
      'export const db = new DataSource({ type: "postgres", synchronize: false, migrationsRun: false });',
    ),
    lines(
      "import { DataSource } from 'typeorm';",
      'export const db = new DataSource({ type: "postgres", url: process.env.DATABASE_URL });',
    ),
    // a local DataSource class is not TypeORM's
    lines('class DataSource { constructor(o: object) {} }', 'new DataSource({ synchronize: true });'),
    // TypeOrmModule.forRootAsync whose factory keeps synchronize off
    lines(
      "import { TypeOrmModule } from '@nestjs/typeorm';",
      'TypeOrmModule.forRootAsync({ useFactory: () => ({ type: "postgres", synchronize: false }) });',
    ),
    // an object with synchronize passed to something else
    lines("import { DataSource } from 'typeorm';", 'cache.configure({ synchronize: true });'),
    // .sync() without Sequelize imported (a file-sync helper)
    lines("import { Repo } from './repo';", 'await repo.sync();'),
    // .up() without Umzug imported
    lines("import { Elevator } from './elevator';", 'await elevator.up();'),
    // migrate() from drizzle-orm itself (not a migrator module) or a local one
    lines("import { sql } from 'drizzle-orm';", 'function migrate(x: unknown) {}', 'migrate(sql);'),
    // migrate() from a module that is not a migrator
    lines("import { migrate } from 'postgres';", "await migrate({ client }, 'migrations');"),
    // knex query methods
    lines("import knex from 'knex';", 'const db = knex({ client: "pg" });', "await db('users').where({ id }).first();"),
    // prisma commands that do not write schema, and unrelated spawns
    lines("import { execSync } from 'node:child_process';", "execSync('npx prisma generate');"),
    lines("import { spawn } from 'node:child_process';", "spawn('node', ['dist/server.js']);"),
    // a local execSync is not child_process
    lines('const execSync = (s: string) => s;', "execSync('prisma migrate deploy');"),
    // other environment variables
    'if (process.env.RUN_JOBS === "true") start();',
    // a local `process` shadows the global
    lines('function f(process: { env: Record<string, string> }) {', '  return process.env.POSTGRES_RUN_MIGRATIONS;', '}'),
    // schema writes in the migrate entrypoint and in migration files are the point
    {
      code: lines("import knex from 'knex';", 'await db.migrate.latest();', 'process.env.POSTGRES_RUN_MIGRATIONS;'),
      filename: 'src/cmd/migrate.ts',
    },
    {
      code: lines("import { migrate } from 'drizzle-orm/node-postgres/migrator';", 'await migrate(db, { migrationsFolder: "drizzle" });'),
      filename: 'apps/orders/cmd/migrate/main.ts',
    },
    { code: lines("import { Sequelize } from 'sequelize';", 'await sequelize.sync();'), filename: 'src/db/migrations/20240101-init.ts' },
    // settings move the entrypoint
    {
      code: 'await db.migrate.latest();',
      filename: 'scripts/db-migrate.ts',
      settings: { 'replica-guard': { migrateEntrypoints: ['scripts/db-migrate.ts'] } },
    },
    // replica-guard's own runMigrations is a function, not a TypeORM method
    lines("import { runMigrations } from 'replica-guard';", "await runMigrations({ lockKey: 'svc', migrate });"),
    // Schema.create (lowercase) on something else
    'schema.create({ name: "x" });',
  ],
  invalid: [
    // TypeORM options
    {
      code: lines("import { DataSource } from 'typeorm';", 'export const db = new DataSource({ type: "postgres", synchronize: true });'),
      errors: [option(2, 54)],
    },
    {
      code: lines("import { DataSource } from 'typeorm';", 'new DataSource({ migrationsRun: true, synchronize: false });'),
      errors: [option(2, 18)],
    },
    {
      code: lines(
        "import { DataSource } from 'typeorm';",
        'new DataSource({',
        '  synchronize: process.env.NODE_ENV !== "production",',
        '  migrationsRun: true,',
        '});',
      ),
      errors: [option(3, 3), option(4, 3)],
    },
    { code: lines("import * as typeorm from 'typeorm';", 'new typeorm.DataSource({ synchronize: true });'), errors: [option(2, 26)] },
    {
      code: lines(
        "import { DataSource as DS } from 'typeorm';",
        'const options = { type: "postgres", synchronize: true } as const;',
        'new DS(options);',
      ),
      errors: [option(2, 37)],
    },
    {
      code: lines(
        "import { DataSource } from 'typeorm';",
        'const base = { migrationsRun: true };',
        'new DataSource({ ...base, type: "postgres" });',
      ),
      errors: [option(2, 16)],
    },
    {
      code: lines("import { createConnection } from 'typeorm';", 'await createConnection({ type: "postgres", synchronize: true });'),
      errors: [option(2, 44)],
    },
    {
      code: lines(
        "import { TypeOrmModule } from '@nestjs/typeorm';",
        '@Module({ imports: [TypeOrmModule.forRoot({ synchronize: true })] })',
        'export class AppModule {}',
      ),
      errors: [option(2, 45)],
    },
    {
      code: lines(
        "import { TypeOrmModule } from '@nestjs/typeorm';",
        'TypeOrmModule.forRootAsync({',
        '  inject: [ConfigService],',
        '  useFactory: (config: ConfigService) => ({ type: "postgres", url: config.get("DATABASE_URL"), synchronize: config.get("DB_SYNC") }),',
        '});',
      ),
      errors: [option(4, 96)],
    },
    {
      code: lines(
        "import { TypeOrmModule } from '@nestjs/typeorm';",
        'TypeOrmModule.forRootAsync({',
        '  useFactory: async () => {',
        '    const url = await secret();',
        '    return { type: "postgres", url, migrationsRun: true };',
        '  },',
        '});',
      ),
      errors: [option(5, 37)],
    },
    // TypeORM methods
    {
      code: lines(
        "import { DataSource } from 'typeorm';",
        'const db = new DataSource(opts);',
        'await db.initialize();',
        'await db.runMigrations();',
      ),
      errors: [call(4, 7)],
    },
    { code: 'await this.dataSource.runMigrations({ transaction: "each" });', errors: [call(1, 7)] },
    {
      code: lines(
        "import { DataSource } from 'typeorm';",
        'export class Boot { constructor(private ds: DataSource) {}',
        '  async onModuleInit() { await this.ds.synchronize(); } }',
      ),
      errors: [call(3, 32)],
    },
    // Sequelize
    {
      code: lines(
        "import { Sequelize } from 'sequelize';",
        'const sequelize = new Sequelize(url);',
        'await sequelize.sync({ alter: true });',
      ),
      errors: [call(3, 7)],
    },
    { code: lines("import { Model } from 'sequelize';", 'class User extends Model {}', 'await User.sync();'), errors: [call(3, 7)] },
    { code: lines("import { Sequelize } from 'sequelize-typescript';", 'await sequelize.sync({ force: false });'), errors: [call(2, 7)] },
    // knex
    { code: 'await knex.migrate.latest();', errors: [call(1, 7)] },
    { code: lines('export async function boot() {', '  await db.migrate.up({ name: "001_init.js" });', '}'), errors: [call(2, 9)] },
    { code: 'await this.knex.migrate.rollback();', errors: [call(1, 7)] },
    { code: 'db.migrate.down();', errors: [call(1, 1)] },
    // Drizzle
    {
      code: lines("import { migrate } from 'drizzle-orm/node-postgres/migrator';", 'await migrate(db, { migrationsFolder: "./drizzle" });'),
      errors: [call(2, 7)],
    },
    {
      code: lines(
        "import { migrate as runDrizzle } from 'drizzle-orm/postgres-js/migrator';",
        'await runDrizzle(db, { migrationsFolder: "./drizzle" });',
      ),
      errors: [call(2, 7)],
    },
    {
      code: lines("import * as migrator from 'drizzle-orm/neon-http/migrator';", 'await migrator.migrate(db, config);'),
      errors: [call(2, 7)],
    },
    // the migrators that lock themselves still run in every pod at start-up, beside the server
    {
      code: lines("import { migrate } from 'postgres-migrations';", "await migrate({ client }, 'migrations');", 'app.listen(3000);'),
      errors: [call(2, 7)],
    },
    {
      code: lines(
        "const { migrate } = require('graphile-migrate');",
        'migrate({ connectionString: process.env.DATABASE_URL }).then(start);',
      ),
      errors: [call(2, 1)],
    },
    // Umzug
    {
      code: lines(
        "import { Umzug, SequelizeStorage } from 'umzug';",
        'const umzug = new Umzug({ migrations: { glob: "migrations/*.js" }, logger: console });',
        'await umzug.up();',
      ),
      errors: [call(3, 7)],
    },
    { code: lines("import { Umzug } from 'umzug';", 'await migrator.down({ to: 0 });'), errors: [call(2, 7)] },
    // MikroORM
    {
      code: lines(
        "import { MikroORM } from '@mikro-orm/postgresql';",
        'const orm = await MikroORM.init();',
        'await orm.getMigrator().up();',
      ),
      errors: [call(3, 7)],
    },
    { code: 'await orm.getSchemaGenerator().updateSchema();', errors: [call(1, 7)] },
    { code: 'await orm.getSchemaGenerator().createSchema();', errors: [call(1, 7)] },
    { code: 'await this.orm.getSchemaGenerator().refreshDatabase();', errors: [call(1, 7)] },
    {
      code: lines("import { MikroORM } from '@mikro-orm/core';", 'await orm.migrator.up();', 'await orm.schema.updateSchema();'),
      errors: [call(2, 7), call(3, 7)],
    },
    // Kysely
    {
      code: lines(
        "import { Migrator, FileMigrationProvider } from 'kysely';",
        'const migrator = new Migrator({ db, provider });',
        'const { error } = await migrator.migrateToLatest();',
      ),
      errors: [call(3, 25)],
    },
    { code: lines("import { Migrator } from 'kysely';", 'await migrator.migrateUp();'), errors: [call(2, 7)] },
    // node-pg-migrate
    {
      code: lines(
        "import { runner } from 'node-pg-migrate';",
        'await runner({ databaseUrl: url, dir: "migrations", direction: "up", migrationsTable: "pgmigrations" });',
      ),
      errors: [call(2, 7)],
    },
    {
      code: lines("import migrate from 'node-pg-migrate';", 'await migrate({ databaseUrl, dir, direction: "up" });'),
      errors: [call(2, 7)],
    },
    // prisma spawned
    {
      code: lines("import { execSync } from 'node:child_process';", "execSync('npx prisma migrate deploy', { stdio: 'inherit' });"),
      errors: [command(2, 1)],
    },
    {
      code: lines("import { spawn } from 'child_process';", "spawn('npx', ['prisma', 'migrate', 'deploy'], { stdio: 'inherit' });"),
      errors: [command(2, 1)],
    },
    {
      code: lines("import * as cp from 'node:child_process';", 'cp.execFileSync("npx", ["prisma", "db", "push", "--accept-data-loss"]);'),
      errors: [command(2, 1)],
    },
    { code: lines("import { execa } from 'execa';", "await execa('prisma', ['migrate', 'deploy']);"), errors: [command(2, 7)] },
    { code: lines("import { $ } from 'execa';", 'await $`npx prisma migrate deploy --schema ${schema}`;'), errors: [command(2, 7)] },
    { code: lines("import { exec } from 'node:child_process';", 'exec(`prisma migrate dev --name init`);'), errors: [command(2, 1)] },
    // Schema.Create
    { code: 'await Schema.Create(db);', errors: [call(1, 7)] },
    { code: 'await store.Schema.Create(ctx, pool);', errors: [call(1, 7)] },
    // the flag
    { code: 'if (process.env.POSTGRES_RUN_MIGRATIONS === "true") await migrateAll();', errors: [flag(1, 5)] },
    { code: 'const run = process.env["POSTGRES_RUN_MIGRATIONS"];', errors: [flag(1, 13)] },
    { code: 'const { POSTGRES_RUN_MIGRATIONS: runMigrations = "false" } = process.env;', errors: [flag(1, 9)] },
    { code: lines('const env = process.env;', 'if (env.POSTGRES_RUN_MIGRATIONS) start();'), errors: [flag(2, 5)] },
    {
      code: lines("import { env } from 'node:process';", 'export const run = env.POSTGRES_RUN_MIGRATIONS === "1";'),
      errors: [flag(2, 20)],
    },
    { code: 'const run = globalThis.process.env.POSTGRES_RUN_MIGRATIONS;', errors: [flag(1, 13)] },
    // more flags by setting
    {
      code: 'if (process.env.DB_AUTO_MIGRATE) migrate();',
      settings: { 'replica-guard': { migrationFlags: ['DB_AUTO_MIGRATE'] } },
      errors: [flag(1, 5)],
    },
    // a file that is not an entrypoint although it is called migrate-ish
    { code: 'await knex.migrate.latest();', filename: 'src/server/migrate-helpers.ts', errors: [call(1, 7)] },
  ],
});

jsRuleTester.run('no-in-app-migrations (JavaScript)', rule, {
  valid: [
    "const { execSync } = require('child_process'); execSync('npm run build');",
    { code: "const knex = require('knex'); knex.migrate.latest();", filename: 'cmd/migrate.js' },
  ],
  invalid: [
    {
      code: lines("const { DataSource } = require('typeorm');", 'module.exports = new DataSource({ synchronize: true });'),
      languageOptions: COMMONJS,
      errors: [option(2, 35)],
    },
    {
      code: lines("const { Sequelize } = require('sequelize');", 'sequelize.sync().then(start);'),
      languageOptions: COMMONJS,
      errors: [call(2, 1)],
    },
    {
      code: lines("const { runner } = require('node-pg-migrate');", 'runner({ dir: "migrations", direction: "up" });'),
      languageOptions: COMMONJS,
      errors: [call(2, 1)],
    },
    {
      code: lines("const { migrate } = require('drizzle-orm/node-postgres/migrator');", 'migrate(db, { migrationsFolder: "drizzle" });'),
      languageOptions: COMMONJS,
      errors: [call(2, 1)],
    },
    {
      code: lines("const cp = require('child_process');", "cp.execSync('npx prisma migrate deploy');"),
      languageOptions: COMMONJS,
      errors: [command(2, 1)],
    },
    { code: lines("const { Umzug } = require('umzug');", 'umzug.up();'), languageOptions: COMMONJS, errors: [call(2, 1)] },
    { code: 'app.knex.migrate.latest().then(listen);', errors: [call(1, 1)] },
    { code: 'if (process.env.POSTGRES_RUN_MIGRATIONS) { await orm.getMigrator().up(); }', errors: [flag(1, 5), call(1, 50)] },
  ],
});

function findings(code: string): Finding<NoInAppMigrationsMessageIds, NoInAppMigrationsFacts>[] {
  const out: Finding<NoInAppMigrationsMessageIds, NoInAppMigrationsFacts>[] = [];
  const linter = new Linter({ configType: 'flat' });
  linter.verify(
    code,
    {
      files: ['**/*.ts'],
      languageOptions: { parser: tsParser as never },
      plugins: {
        t: {
          rules: {
            r: {
              meta: noInAppMigrations.meta,
              create: (context: unknown) => noInAppMigrations.detect(context as never, (f) => out.push(f)),
            },
          },
        } as never,
      },
      rules: { 't/r': 'error' },
    },
    'src/server.ts',
  );
  return out;
}

test('facts: the property to set false, the statement to remove, the import that becomes unused', () => {
  const [opt] = findings(lines("import { DataSource } from 'typeorm';", 'export const db = new DataSource({ synchronize: true });'));
  expect(opt?.facts).toMatchObject({
    kind: 'option',
    library: 'typeorm',
    option: 'synchronize',
    property: { type: 'Property' },
    call: { type: 'NewExpression' },
  });

  const [drizzle] = findings(
    lines(
      "import { migrate } from 'drizzle-orm/node-postgres/migrator';",
      "import { db } from './db';",
      'await migrate(db, { migrationsFolder: "drizzle" });',
    ),
  );
  expect(drizzle?.facts).toMatchObject({
    kind: 'call',
    library: 'drizzle',
    statement: { type: 'ExpressionStatement' },
    unusedImport: { type: 'ImportSpecifier' },
  });

  const [knex] = findings('const ready = knex.migrate.latest();');
  expect(knex?.facts).toMatchObject({ kind: 'call', library: 'knex', statement: undefined });

  const [prisma] = findings(lines("import { execSync } from 'node:child_process';", "execSync('npx prisma migrate deploy');"));
  expect(prisma?.facts).toMatchObject({ kind: 'command', library: 'prisma', statement: { type: 'ExpressionStatement' } });

  const [envFlag] = findings('const run = process.env.POSTGRES_RUN_MIGRATIONS;');
  expect(envFlag?.facts).toMatchObject({ kind: 'flag', flag: 'POSTGRES_RUN_MIGRATIONS', read: { type: 'MemberExpression' } });
});

test('never throws on odd input', () => {
  for (const code of [
    '',
    'migrate',
    'new DataSource()',
    "import { DataSource } from 'typeorm'; new DataSource(...args);",
    'x.migrate[latest]();',
    '(() => {})()',
    "import { TypeOrmModule } from '@nestjs/typeorm'; TypeOrmModule.forRootAsync({ useFactory });",
  ]) {
    expect(() => findings(code)).not.toThrow();
  }
});

// Found on real code (docs/validation.md): knex's own `bin/cli.js` runs `knex.migrate.latest()`;
// a `#!` script is a command run by hand or by the deploy, not the server every replica starts.
jsRuleTester.run('no-in-app-migrations (command-line scripts)', rule, {
  valid: [{ code: '#!/usr/bin/env node\nconst knex = require("knex")(config);\nknex.migrate.latest();', filename: 'scripts/cli.js' }],
  invalid: [
    {
      code: 'const knex = require("knex")(config);\nknex.migrate.latest();',
      filename: 'scripts/cli.js',
      errors: [{ messageId: 'schemaWriteCall', line: 2, column: 1 }],
    },
  ],
});
