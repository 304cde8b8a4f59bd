// The baseline follow-up of `extract-migrations`: one per migrator the run took out of the app,
// naming what an existing database needs before the migrate entrypoint's first run — nothing
// where the library's history table already records what ran, a baseline and the command that
// records it where the schema was built without one (synchronize, sync(), db push, the schema
// generator). Through the engine on temp projects, and once through the CLI's --json and summary.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runCodemod } from '../../codemods/index.js';
import { repo, run } from './cli-harness.js';

const scratch = mkdtempSync(join(tmpdir(), 'extract-migrations-baseline-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function projectWith(dependency: string, server: string): string {
  const dir = mkdtempSync(join(scratch, 'p-'));
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'orders', type: 'module', dependencies: { [dependency]: '*' } }, null, 2),
    'tsconfig.json': '{}',
    'src/server.ts': server,
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

async function baselines(dependency: string, server: string): Promise<string[]> {
  const report = await runCodemod({ cwd: projectWith(dependency, server), transforms: ['extract-migrations'], force: true });
  expect(report.errors).toEqual([]);
  return report.manual.filter((m) => m.reason.startsWith('baseline (')).map((m) => `${m.file}: ${m.reason}`);
}

const cases: Array<{ name: string; dependency: string; server: string; expected: RegExp }> = [
  {
    name: 'TypeORM migrationsRun: the migrations table records what ran',
    dependency: 'typeorm',
    server:
      "import { DataSource } from 'typeorm';\nexport const db = new DataSource({ type: 'postgres', migrationsRun: true, synchronize: false });\n",
    expected: /^package\.json: baseline \(TypeORM\): the `migrations` table already records .*nothing to do/,
  },
  {
    name: 'TypeORM synchronize: generate a baseline and record it with --fake',
    dependency: 'typeorm',
    server: "import { DataSource } from 'typeorm';\nexport const db = new DataSource({ type: 'postgres', synchronize: true });\n",
    expected:
      /^package\.json: baseline \(TypeORM\): `synchronize` built the schema.*`npx typeorm migration:generate -d <data-source> src\/migrations\/Baseline`.*`npx typeorm migration:run -d <data-source> --fake`/,
  },
  {
    name: 'Prisma db push: a 0_init baseline marked applied with migrate resolve',
    dependency: 'prisma',
    server: "import { execSync } from 'node:child_process';\nexecSync('npx prisma db push --skip-generate');\n",
    expected: /^package\.json: baseline \(Prisma\): `prisma db push` built the schema.*`npx prisma migrate resolve --applied 0_init`/,
  },
  {
    name: 'Prisma migrate deploy: _prisma_migrations records what ran',
    dependency: 'prisma',
    server: "import { execSync } from 'node:child_process';\nexecSync('npx prisma migrate deploy');\n",
    expected: /^package\.json: baseline \(Prisma\): `prisma migrate deploy` applies only what `_prisma_migrations` lacks/,
  },
  {
    name: 'knex: knex_migrations, and the same directory',
    dependency: 'knex',
    server: "import knex from 'knex';\nconst db = knex({ client: 'pg' });\nawait db.migrate.latest();\n",
    expected:
      /^package\.json: baseline \(knex\): `knex_migrations` records .*knex refuses to run when a recorded migration file is missing/,
  },
  {
    name: 'Sequelize sync(): a baseline recorded in SequelizeMeta',
    dependency: 'sequelize',
    server:
      "import { Sequelize } from 'sequelize';\nconst sequelize = new Sequelize('postgres://x');\nawait sequelize.sync({ alter: true });\n",
    expected: /^package\.json: baseline \(Sequelize\): `sync\(\)` built the tables .*inserting its file name into `SequelizeMeta`/,
  },
  {
    name: 'Umzug: a storage in the database, never umzug.json',
    dependency: 'umzug',
    server: "import { Umzug } from 'umzug';\ndeclare const umzug: Umzug;\nawait umzug.up();\n",
    expected: /^package\.json: baseline \(Umzug\): .*`JSONStorage` \(`umzug\.json`\)/,
  },
  {
    name: 'Drizzle: __drizzle_migrations and its created_at',
    dependency: 'drizzle-orm',
    server:
      "import { migrate } from 'drizzle-orm/node-postgres/migrator';\ndeclare const db: never;\nawait migrate(db, { migrationsFolder: './drizzle' });\n",
    expected: /^package\.json: baseline \(Drizzle\): .*`drizzle\.__drizzle_migrations`.*`meta\/_journal\.json`/,
  },
  {
    name: 'postgres-migrations: the hash-checked migrations table, and no command to record a run',
    dependency: 'postgres-migrations',
    server: "import { migrate } from 'postgres-migrations';\ndeclare const client: never;\nawait migrate({ client }, 'migrations');\n",
    expected: /^package\.json: baseline \(postgres-migrations\): the `migrations` table records .*a hash of each file.*idempotently/,
  },
  {
    name: 'graphile-migrate: graphile_migrate.migrations, and an idempotent first migration',
    dependency: 'graphile-migrate',
    server: "import { migrate } from 'graphile-migrate';\nawait migrate({ connectionString: process.env.DATABASE_URL });\n",
    expected: /^package\.json: baseline \(graphile-migrate\): `graphile_migrate\.migrations` records .*idempotently/,
  },
  {
    name: 'MikroORM migrator: mikro_orm_migrations',
    dependency: '@mikro-orm/core',
    server: "import { MikroORM } from '@mikro-orm/core';\ndeclare const orm: MikroORM;\nawait orm.getMigrator().up();\n",
    expected: /^package\.json: baseline \(MikroORM\): `mikro_orm_migrations` records/,
  },
  {
    name: 'MikroORM schema generator: migration:create --initial',
    dependency: '@mikro-orm/core',
    server: "import { MikroORM } from '@mikro-orm/core';\ndeclare const orm: MikroORM;\nawait orm.getSchemaGenerator().updateSchema();\n",
    expected: /^package\.json: baseline \(MikroORM\): the schema generator built .*`npx mikro-orm migration:create --initial`/,
  },
  {
    name: 'Kysely: kysely_migration',
    dependency: 'kysely',
    server: "import { Migrator } from 'kysely';\ndeclare const migrator: Migrator;\nawait migrator.migrateToLatest();\n",
    expected: /^package\.json: baseline \(Kysely\): `kysely_migration` records/,
  },
  {
    name: 'node-pg-migrate: pgmigrations and up --fake',
    dependency: 'node-pg-migrate',
    server:
      "import { runner } from 'node-pg-migrate';\nawait runner({ databaseUrl: 'x', dir: 'migrations', direction: 'up', migrationsTable: 'pgmigrations' });\n",
    expected: /^package\.json: baseline \(node-pg-migrate\): `pgmigrations` records .*`npx node-pg-migrate up --fake`/,
  },
];

describe('one baseline follow-up per migrator taken out of the app', () => {
  for (const { name, dependency, server, expected } of cases) {
    test(name, async () => {
      const found = await baselines(dependency, server);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(expected);
    });
  }
});

test('two migrators in one service get one follow-up each, in a stable order; a sync path wins over history', async () => {
  const server = [
    "import { DataSource } from 'typeorm';",
    "import knex from 'knex';",
    "export const db = new DataSource({ type: 'postgres', migrationsRun: true, synchronize: true });",
    "const k = knex({ client: 'pg' });",
    'await k.migrate.latest();',
    '',
  ].join('\n');
  const found = await baselines('typeorm', server);
  expect(found.map((f) => /baseline \((\w+)\)/.exec(f)?.[1])).toEqual(['TypeORM', 'knex']);
  expect(found[0]).toContain('`synchronize` built the schema');
});

test('a schema write left manual (its result is used) gets no baseline follow-up', async () => {
  const server = "import knex from 'knex';\nconst db = knex({ client: 'pg' });\nexport const done = await db.migrate.latest();\n";
  const report = await runCodemod({ cwd: projectWith('knex', server), transforms: ['extract-migrations'], force: true });
  expect(report.manual.some((m) => m.reason.includes('result is used'))).toBe(true);
  expect(report.manual.filter((m) => m.reason.startsWith('baseline ('))).toEqual([]);
});

test('the CLI lists the baseline in its summary and its --json report', () => {
  const dir = repo({
    'tsconfig.json': '{}',
    'src/server.ts': "import { DataSource } from 'typeorm';\nexport const db = new DataSource({ type: 'postgres', synchronize: true });\n",
  });
  const json = run(dir, '--json', '--dry-run', '--transform', 'extract-migrations');
  expect(json.status).toBe(0);
  const manual = (JSON.parse(json.stdout) as { manual: Array<{ file: string; reason: string; transform: string }> }).manual;
  expect(manual).toContainEqual({
    file: 'package.json',
    line: 1,
    transform: 'extract-migrations',
    reason: expect.stringMatching(/^baseline \(TypeORM\): .*migration:run -d <data-source> --fake/),
  });
  const summary = run(dir, '--dry-run', '--transform', 'extract-migrations');
  expect(summary.stdout + summary.stderr).toMatch(/baseline \(TypeORM\): `synchronize` built the schema/);
});
