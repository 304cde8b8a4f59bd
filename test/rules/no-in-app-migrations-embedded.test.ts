import { ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

// A schema write to an embedded file database (SQLite and its kin) touches a per-host file that no
// second replica shares: not reported. A driver that is not a literal here is not known: reported.
const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const option = (line: number, column: number) => ({ messageId: 'schemaWriteOption' as const, line, column });
const call = (line: number, column: number) => ({ messageId: 'schemaWriteCall' as const, line, column });
const TYPEORM = "import { DataSource, type DataSourceOptions } from 'typeorm';";

/** A class that sets up `this.sequelize` in `connect` (each of `made`, a `null` placeholder first) and syncs it in another method. */
const sequelizeHolder = (...made: string[]) =>
  lines(
    "import { Sequelize } from 'sequelize';",
    'export class Library {',
    '  private sequelize: Sequelize | null = null;',
    '  connect(path: string, url: string) {',
    ...made.map((value) => `    this.sequelize = ${value};`),
    '  }',
    '  async buildModels(force: boolean) {',
    '    return this.sequelize!.sync({ force });',
    '  }',
    '}',
  );

const kyselyOn = (dialect: string) =>
  lines(
    "import Database from 'better-sqlite3';",
    "import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';",
    "import { Pool } from 'pg';",
    'export async function open(file: string) {',
    `  const db = new Kysely<unknown>({ dialect: ${dialect} });`,
    '  const migrator = new Migrator({ db, provider: { getMigrations: async () => ({}) } });',
    '  await migrator.migrateToLatest();',
    '  return db;',
    '}',
  );

/** Umzug 3 with its context and storage on `sequelize`, built from `made`. */
const umzugOn = (made: string) =>
  lines(
    "import { Sequelize } from 'sequelize';",
    "import { Umzug, SequelizeStorage } from 'umzug';",
    `const sequelize = new Sequelize(${made});`,
    'const umzug = new Umzug({',
    "  migrations: { glob: 'migrations/*.js' },",
    '  context: sequelize.getQueryInterface(),',
    '  storage: new SequelizeStorage({ sequelize }),',
    '  logger: console,',
    '});',
    'export async function connect() {',
    '  await umzug.up();',
    '}',
    'connect();',
  );

/** A class whose `models` getter reads the Sequelize it sets up with `options`, handed to a legacy-store migration at start. */
const legacyImport = (options: string) =>
  lines(
    "import { Sequelize } from 'sequelize';",
    "import dbMigration from './migrations/legacy-store';",
    'export class Library {',
    '  sequelize: Sequelize | null = null;',
    '  get models() {',
    '    return this.sequelize?.models || {};',
    '  }',
    '  async init(path: string) {',
    `    this.sequelize = new Sequelize(${options});`,
    '    await dbMigration.migrate(this.models);',
    '  }',
    '}',
  );

/** A handle opened by the project's own maker on `made`, then migrated by its runner (line 5). */
const openedOn = (made: string) =>
  lines(
    "import { openDatabase, resolveDatabasePath } from './connection';",
    "import { runMigrations } from './migrate';",
    'export function openReady(path: string = resolveDatabasePath(), url = process.env.DATABASE_URL) {',
    `  const db = ${made};`,
    '  runMigrations(db);',
    '  return db;',
    '}',
  );

/** A handle built in a module the rule does not read, then handed to the project's runner. */
const handedToRunner = (...head: string[]) =>
  lines("import { runMigrations } from './store/runner';", ...head, 'await runMigrations(store);');

ruleTester.run('no-in-app-migrations (embedded databases)', rule, {
  valid: [
    // a getter of the class reads the SQLite Sequelize it sets up (`this.sequelize?.models || {}`)
    legacyImport("{ dialect: 'sqlite', storage: path }"),
    // a handle told by what the code says of it: a type from better-sqlite3, a module named for SQLite, its name
    handedToRunner("import type Database from 'better-sqlite3';", 'declare const store: Database.Database;'),
    handedToRunner("import store from '../data/sqlite';"),
    handedToRunner('declare const sqliteStore: unknown;', 'const store = sqliteStore;'),
    // opened by the project's database maker on a file's path: a file on this host
    openedOn('openDatabase(path)'),
    openedOn('openDatabase(resolveDatabasePath(), { readonly: false })'),
    lines(
      "import type { Database } from 'better-sqlite3';",
      "import { runMigrations } from './store/runner';",
      'export class Store {',
      '  constructor(private readonly db: Database) {}',
      '  async open() {',
      '    await runMigrations(this.db);',
      '  }',
      '}',
    ),
    // Umzug whose context and storage are a Sequelize on a SQLite file
    umzugOn("{ dialect: 'sqlite', storage: './data/db.sqlite' }"),
    // a Kysely Migrator handed (`{ db }`) a Kysely whose dialect is SQLite's, over a file of this host
    { code: kyselyOn('new SqliteDialect({ database: new Database(file) })'), filename: 'src/cache/open.ts' },
    // a field the class only ever sets to a SQLite client (after a `null` placeholder), synced in another method
    sequelizeHolder('new Sequelize({ dialect: "sqlite", storage: path })'),
    // TypeORM's file drivers, in the options object itself, a const, or a spread
    lines(TYPEORM, 'new DataSource({ type: "better-sqlite3", database: "dev.sqlite", synchronize: true });'),
    lines(TYPEORM, 'const options = { type: "sqlite" as const, database: ":memory:", migrationsRun: true };', 'new DataSource(options);'),
    lines(TYPEORM, 'const base = { type: "sqljs" as const };', 'new DataSource({ ...base, synchronize: true });'),
    lines(TYPEORM, 'new DataSource({ type: "expo", driver: sqlite, database: "app.db", synchronize: true });'),
    // options typed as TypeORM's and handed over elsewhere
    lines(
      TYPEORM,
      'export const devOptions: DataSourceOptions = { type: "better-sqlite3", database: "vendure.sqlite", synchronize: true };',
    ),
    // the project's own enum of drivers, the member named for SQLite, the switch read from the environment
    lines(
      TYPEORM,
      "import { StoreKind } from './store-kind';",
      "export const kioskOptions: DataSourceOptions = { type: StoreKind.sqliteFile, database: 'kiosk.db', synchronize: process.env.KIOSK_SYNC === 'on' };",
    ),
    // NestJS factory returning SQLite options
    lines(
      "import { TypeOrmModule } from '@nestjs/typeorm';",
      'TypeOrmModule.forRootAsync({ useFactory: () => ({ type: "sqlite", database: "db.sqlite", synchronize: true }) });',
    ),
    // Sequelize on SQLite: options or a sqlite: URL
    lines(
      "import { Sequelize } from 'sequelize';",
      'const sequelize = new Sequelize({ dialect: "sqlite", storage: "data.db" });',
      'await sequelize.sync();',
    ),
    lines(
      "import { Sequelize } from 'sequelize';",
      "const sequelize = new Sequelize('sqlite::memory:');",
      'await sequelize.sync({ alter: true });',
    ),
    // knex on a SQLite file
    lines(
      "import knex from 'knex';",
      'const db = knex({ client: "better-sqlite3", connection: { filename: "./app.db" } });',
      'await db.migrate.latest();',
    ),
    // MikroORM: the SQLite driver, by class or by package
    lines(
      "import { MikroORM } from '@mikro-orm/core';",
      "import { SqliteDriver } from '@mikro-orm/sqlite';",
      'const orm = await MikroORM.init({ driver: SqliteDriver, dbName: "app.db" });',
      'await orm.getMigrator().up();',
    ),
    lines(
      "import { MikroORM } from '@mikro-orm/sqlite';",
      'const orm = await MikroORM.init({ dbName: "app.db" });',
      'await orm.getSchemaGenerator().updateSchema();',
    ),
    // a Drizzle client built in the same function from an in-memory SQLite (a test helper's throw-away database)
    lines(
      "import Database from 'better-sqlite3';",
      "import { drizzle } from 'drizzle-orm/better-sqlite3';",
      "import { migrate } from 'drizzle-orm/better-sqlite3/migrator';",
      'export function memoryDb(withSchema: boolean) {',
      "  const db = drizzle(new Database(':memory:'));",
      "  if (withSchema) migrate(db, { migrationsFolder: './drizzle' });",
      '  return db;',
      '}',
    ),
    // the same through a const per step, in CommonJS
    lines(
      "const Database = require('better-sqlite3');",
      "const { drizzle } = require('drizzle-orm/better-sqlite3');",
      "const { migrate } = require('drizzle-orm/better-sqlite3/migrator');",
      'const file = new Database(process.env.DATA_FILE);',
      'const db = drizzle(file);',
      "migrate(db, { migrationsFolder: './drizzle' });",
    ),
    // libSQL on a local file or in memory, by URL
    lines(
      "import { createClient } from '@libsql/client';",
      "import { drizzle } from 'drizzle-orm/libsql';",
      "import { migrate } from 'drizzle-orm/libsql/migrator';",
      "const client = createClient({ url: 'file:cache.db' });",
      "await migrate(drizzle(client), { migrationsFolder: './drizzle' });",
    ),
    lines(
      "import { createClient } from '@libsql/client';",
      "import { drizzle } from 'drizzle-orm/libsql';",
      "import { migrate } from 'drizzle-orm/libsql/migrator';",
      "await migrate(drizzle(createClient({ url: ':memory:' })), { migrationsFolder: './drizzle' });",
    ),
    // knex over a client built in view from an in-memory SQLite file name
    lines(
      "import knex from 'knex';",
      "const db = knex({ client: 'sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true });",
      'const migrations = db.migrate;',
      'await migrations.latest();',
    ),
    // the project's own SQLite wrapper, told by the name of what opens it
    lines(
      "import { SQLiteStore } from './sqlite-store';",
      'export async function openDocument(path: string) {',
      '  const db = await SQLiteStore.openFile(path);',
      '  await db.migrate();',
      '  return db;',
      '}',
    ),
    lines(
      "import { Database } from './db';",
      'export async function openRecovery(location: string) {',
      '  const db = Database.sqlite(location);',
      '  await db.migrateToLatestOrThrow();',
      '}',
    ),
  ],
  invalid: [
    // the same shapes on a server database
    { code: legacyImport("{ dialect: 'postgres', host: path }"), errors: [call(10, 11)] },
    { code: handedToRunner("import type { Pool } from 'pg';", 'declare const store: Pool;'), errors: [call(4, 7)] },
    { code: handedToRunner("import store from '../data/postgres';"), errors: [call(3, 7)] },
    // a type argument names the schema, not the database
    {
      code: handedToRunner("import type { Kysely } from 'kysely';", 'declare const store: Kysely<SqliteSchema>;'),
      errors: [call(4, 7)],
    },
    {
      code: lines(
        "import type { Pool } from 'pg';",
        "import { runMigrations } from './store/runner';",
        'export class Store {',
        '  constructor(private readonly db: Pool) {}',
        '  async open() {',
        '    await runMigrations(this.db);',
        '  }',
        '}',
      ),
      errors: [call(6, 11)],
    },
    // the same Umzug on a server database; a JSON storage's file name is no database
    { code: umzugOn('process.env.DATABASE_URL!'), errors: [call(11, 9)] },
    {
      code: lines(
        "import { Umzug, JSONStorage } from 'umzug';",
        "const umzug = new Umzug({ migrations: { glob: 'm/*.js' }, context: pool, storage: new JSONStorage({ path: 'umzug.json' }) });",
        'await umzug.up();',
      ),
      errors: [call(3, 7)],
    },
    // the same Migrator on PostgreSQL
    {
      code: kyselyOn('new PostgresDialect({ pool: new Pool({ connectionString: process.env.DATABASE_URL }) })'),
      filename: 'src/cache/open.ts',
      errors: [call(7, 9)],
    },
    // the field is also given a server database: not known to be embedded
    { code: sequelizeHolder('new Sequelize({ dialect: "postgres" })'), errors: [call(8, 12)] },
    { code: sequelizeHolder('new Sequelize({ dialect: "sqlite", storage: path })', 'new Sequelize(url)'), errors: [call(9, 12)] },
    // the driver read from the environment: unknown, still reported
    { code: lines(TYPEORM, 'new DataSource({ type: process.env.DB_TYPE as never, synchronize: true });'), errors: [option(2, 54)] },
    // the same enum's member for a server database
    {
      code: lines(
        TYPEORM,
        "import { StoreKind } from './store-kind';",
        "export const hubOptions: DataSourceOptions = { type: StoreKind.postgres, synchronize: process.env.HUB_SYNC === 'on' };",
      ),
      errors: [option(3, 74)],
    },
    // a server database beside
    { code: lines(TYPEORM, 'new DataSource({ type: "postgres", synchronize: true });'), errors: [option(2, 36)] },
    {
      code: lines(TYPEORM, 'export const options: DataSourceOptions = { type: "mariadb", synchronize: true };'),
      errors: [option(2, 62)],
    },
    // a driver chosen at run time is not known to be embedded
    { code: lines(TYPEORM, 'new DataSource({ type: dev ? "sqlite" : "postgres", synchronize: true });'), errors: [option(2, 53)] },
    {
      code: lines(
        "import { Sequelize } from 'sequelize';",
        'const sequelize = new Sequelize({ dialect: "postgres" });',
        'await sequelize.sync();',
      ),
      errors: [call(3, 7)],
    },
    {
      code: lines(
        "import knex from 'knex';",
        'const db = knex({ client: "pg", connection: process.env.DATABASE_URL });',
        'await db.migrate.latest();',
      ),
      errors: [call(3, 7)],
    },
    // a receiver built out of view
    { code: lines("import { Sequelize } from 'sequelize';", 'await sequelize.sync();'), errors: [call(2, 7)] },
    {
      code: lines(
        "import { MikroORM } from '@mikro-orm/postgresql';",
        'const orm = await MikroORM.init({ dbName: "app" });',
        'await orm.getMigrator().up();',
      ),
      errors: [call(3, 7)],
    },
    {
      code: lines("import { migrate } from 'drizzle-orm/libsql/migrator';", "migrate(db, { migrationsFolder: './drizzle' });"),
      errors: [call(2, 1)],
    },
    // libSQL at a server's URL, or one read from the environment
    {
      code: lines(
        "import { createClient } from '@libsql/client';",
        "import { drizzle } from 'drizzle-orm/libsql';",
        "import { migrate } from 'drizzle-orm/libsql/migrator';",
        "const client = createClient({ url: 'libsql://notes.example.turso.io', authToken: process.env.TOKEN });",
        "await migrate(drizzle(client), { migrationsFolder: './drizzle' });",
      ),
      errors: [call(5, 7)],
    },
    {
      code: lines(
        "import { createClient } from '@libsql/client';",
        "import { drizzle } from 'drizzle-orm/libsql';",
        "import { migrate } from 'drizzle-orm/libsql/migrator';",
        'export async function setUp() {',
        '  const db = drizzle(createClient({ url: process.env.DATABASE_URL! }));',
        "  await migrate(db, { migrationsFolder: './drizzle' });",
        '}',
      ),
      errors: [call(6, 9)],
    },
    // a PostgreSQL client built in the same helper
    {
      code: lines(
        "import postgres from 'postgres';",
        "import { drizzle } from 'drizzle-orm/postgres-js';",
        "import { migrate } from 'drizzle-orm/postgres-js/migrator';",
        'export async function setUp() {',
        '  const db = drizzle(postgres(process.env.DATABASE_URL!, { max: 1 }));',
        "  await migrate(db, { migrationsFolder: './drizzle' });",
        '}',
      ),
      errors: [call(6, 9)],
    },
    // a helper given its client: where it was built is out of view
    {
      code: lines(
        "import { migrate } from 'drizzle-orm/better-sqlite3/migrator';",
        'export function prepare(db: Parameters<typeof migrate>[0]) {',
        "  migrate(db, { migrationsFolder: './drizzle' });",
        '}',
      ),
      errors: [call(3, 3)],
    },
    // a wrapper of a server database, or of libSQL (which may be a server), is not SQLite by its name
    {
      code: lines(
        "import { PgStore } from './pg-store';",
        'export async function openStore(url: string) {',
        '  const db = await PgStore.connect(url);',
        '  await db.migrate();',
        '}',
      ),
      errors: [call(4, 9)],
    },
    {
      code: lines(
        "import { Database } from './db';",
        'export async function openShared(url: string) {',
        '  const db = Database.libsql(url);',
        '  await db.migrateToLatestOrThrow();',
        '}',
      ),
      errors: [call(4, 9)],
    },
    // the same maker on a URL, a maker named for something else, or a path that is not the first argument
    { code: openedOn('openDatabase(url)'), errors: [call(5, 3)] },
    { code: openedOn('openConnection(path)'), errors: [call(5, 3)] },
    { code: openedOn('openDatabase(url, path)'), errors: [call(5, 3)] },
  ],
});
