import { ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

// A service that runs on PostgreSQL or on a SQLite file beside it migrates at start in both: the
// SQLite branch migrates this host's own file (not reported), the server branch is still judged.
// The branch is told by SQLite's own `PRAGMA` sent to the same database in the same statement
// list, or by an `if` whose test chooses SQLite.
const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const call = (line: number, column: number) => ({ messageId: 'schemaWriteCall' as const, line, column });

/** A start path with a Postgres branch and an `else` whose statements are `otherwise`. */
const perDialect = (...otherwise: string[]) =>
  lines(
    "import { appSource, usesPostgres } from './app-source';",
    'export async function boot() {',
    '  const connection = await appSource.initialize();',
    '  if (usesPostgres) {',
    '    await connection.runMigrations();',
    '  } else {',
    ...otherwise.map((statement) => `    ${statement}`),
    '  }',
    '}',
  );

/** An `if (test)` around a knex migration, with an `else` that migrates too. */
const chosenBy = (test: string) =>
  lines(
    "import { knex } from './knex';",
    "import { settings } from './settings';",
    'export async function prepare() {',
    `  if (${test}) {`,
    '    await knex.migrate.latest();',
    '  } else {',
    '    await knex.migrate.latest();',
    '  }',
    '}',
  );

ruleTester.run('no-in-app-migrations (SQLite branches)', rule, {
  valid: [
    // a module-level run with SQLite's settings statement first, on the same handle
    lines("import db from './models';", "await db.sequelize.query('PRAGMA journal_mode=WAL;');", 'await db.umzug.up();'),
    // better-sqlite3's own pragma method on the same client
    lines(
      "import { database } from './database';",
      'export async function open() {',
      "  database.pragma('journal_mode = WAL');",
      '  await database.migrate();',
      '}',
    ),
  ],
  invalid: [
    // the Postgres branch is reported; the SQLite one, which sends PRAGMA to the same connection, is not
    {
      code: perDialect(
        "await connection.query('PRAGMA foreign_keys=OFF');",
        'await connection.runMigrations();',
        "await connection.query('PRAGMA foreign_keys=ON');",
      ),
      errors: [call(5, 11)],
    },
    // the `else` of a Postgres test alone says nothing (MySQL may run there too): both reported
    { code: perDialect('await connection.runMigrations();'), errors: [call(5, 11), call(7, 11)] },
    // PRAGMA sent to another database (a cache file) says nothing of the one migrated
    {
      code: perDialect("await cache.query('PRAGMA foreign_keys=OFF');", 'await connection.runMigrations();'),
      errors: [call(5, 11), call(8, 11)],
    },
    // the word in a log line is not SQL sent to the database
    {
      code: perDialect("logger.info('PRAGMA skipped');", "connection.emit('PRAGMA');", 'await connection.runMigrations();'),
      errors: [call(5, 11), call(9, 11)],
    },
    // an `if` that chooses SQLite: its consequent is quiet, the other branch reported
    { code: chosenBy("settings.client === 'better-sqlite3'"), errors: [call(7, 11)] },
    { code: chosenBy('settings.isSqlite'), errors: [call(7, 11)] },
    { code: chosenBy('isSQLite()'), errors: [call(7, 11)] },
    // negated: the alternate is the SQLite branch
    { code: chosenBy("settings.client !== 'sqlite3'"), errors: [call(5, 11)] },
    { code: chosenBy('!settings.useSqlite'), errors: [call(5, 11)] },
    // a test that names the server database alone chooses nothing
    { code: chosenBy("settings.client === 'pg'"), errors: [call(5, 11), call(7, 11)] },
  ],
});
