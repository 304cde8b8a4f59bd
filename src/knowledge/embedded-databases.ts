// Embedded file databases: a database file on the host's own disk (SQLite, sql.js, the mobile
// SQLite drivers). Each replica has its own file, so a schema write at start-up (`synchronize`,
// `sync()`, `migrate.latest()`) races no other replica. Plain data, read by `no-in-app-migrations`.

/** Option keys, by ORM, whose string value names the driver: TypeORM `type`, Sequelize `dialect`, knex `client`. */
export const EMBEDDED_DRIVER_VALUES: Readonly<Record<'type' | 'dialect' | 'client', readonly string[]>> = {
  // TypeORM's file and on-device drivers.
  type: ['sqlite', 'better-sqlite3', 'sqljs', 'capacitor', 'cordova', 'expo', 'nativescript', 'react-native'],
  // Sequelize.
  dialect: ['sqlite'],
  // knex.
  client: ['sqlite3', 'better-sqlite3', 'sqlite'],
};

/** MikroORM's `driver:` classes for SQLite (`@mikro-orm/sqlite`, `@mikro-orm/better-sqlite`, `@mikro-orm/libsql`'s file mode is not assumed). */
export const EMBEDDED_DRIVER_CLASSES: readonly string[] = ['SqliteDriver', 'BetterSqliteDriver'];

/**
 * Modules whose clients only open a file on this host or memory: the SQLite drivers
 * (`new Database(path)` of better-sqlite3, sqlite3, `bun:sqlite`, `node:sqlite`, sql.js), Drizzle
 * over them, and MikroORM packages whose `MikroORM` / `defineConfig` only speak SQLite. libSQL
 * (Turso) may be a server: it is embedded only with a local URL (`EMBEDDED_URL`).
 */
export const EMBEDDED_CLIENT_MODULES: readonly string[] = [
  'better-sqlite3',
  'sqlite3',
  'sqlite',
  'bun:sqlite',
  'node:sqlite',
  'sql.js',
  'drizzle-orm/better-sqlite3',
  'drizzle-orm/bun-sqlite',
  'drizzle-orm/sql-js',
  'drizzle-orm/expo-sqlite',
  'drizzle-orm/op-sqlite',
  '@mikro-orm/sqlite',
  '@mikro-orm/better-sqlite',
];

/**
 * A name of a function, class or method that opens a SQLite database (`SQLiteDB.openDB(path)`,
 * `Database.sqlite(file)`, `new SqliteStore(dir)`): the project's own wrapper of a SQLite driver,
 * whose file is on this host. libSQL (`libsql`, which may be a server) does not hold the word.
 */
export const EMBEDDED_MAKER_NAME = /sqlite/i;

/**
 * A connection string of an embedded database: Sequelize's `new Sequelize('sqlite::memory:')` or
 * `sqlite:./data.db`, SQLite's `:memory:`, libSQL's local `file:app.db`.
 */
export const EMBEDDED_URL = /^(?:sqlite:|file:|:memory:$)/i;

/** A database file's name or path (`queue.db`, `./data/app.sqlite`, `${dir}/store.sqlite3`), no URL: a client opened on it is a file on this host. */
export const EMBEDDED_FILE_NAME = /^(?!.*:\/\/).*\.(?:sqlite3?|db3?)$/i;

/**
 * A project's maker of a database handle (`openDatabase(path)`, `new Database(file)`, `connectDb(dbPath)`):
 * named for a database and nothing else. Given a file path (`FILE_PATH_NAME`), the database is a file on this host.
 */
export const DATABASE_OPENER_NAME = /^(?:open|connect|create|load)?(?:db|database)$/i;

/**
 * A name that holds a file's path (`path`, `dbPath`, `databaseFile`, `filename`, `resolveDatabasePath()`):
 * server databases are reached by a URL or host, not a path.
 */
export const FILE_PATH_NAME = /(?:path|file|filename)$/i;

/**
 * Drizzle migrators (`drizzle-orm/<driver>/migrator`) of SQLite-family databases, libSQL/Turso
 * included: not PostgreSQL, so the PostgreSQL advisory lock a migrate entrypoint is asked to hold
 * does not exist there, and SQLite admits one writer at a time. Read by `migrate-entrypoint`.
 */
export const NOT_POSTGRES_MIGRATOR_MODULE =
  /^drizzle-orm\/(?:libsql|better-sqlite3|bun-sqlite|d1|expo-sqlite|op-sqlite|sql-js|durable-sqlite)\/migrator$/;

/**
 * libSQL's client modules: a `Client` from them may be a file on this host or a server (Turso,
 * `sqld`) every replica shares, so a handle typed with one is not a file by its name (`sqlite`).
 */
export const LIBSQL_CLIENT_MODULES: readonly string[] = ['@libsql/client', '@libsql/client/web', '@libsql/client/node', 'libsql'];
