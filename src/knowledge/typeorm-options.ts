// What replica-guard knows about TypeORM's options objects: the types they are declared with, the
// keys only they have, the driver names of their `type`. An object that shows one of these is
// TypeORM's options, handed to a DataSource somewhere. Plain data, read by `no-in-app-migrations`.

/** Types of an options object of TypeORM: an object typed so (or returned so) is handed to a DataSource somewhere. */
export const TYPEORM_OPTIONS_TYPES: readonly string[] = [
  'DataSourceOptions',
  'ConnectionOptions',
  'TypeOrmModuleOptions',
  'PostgresConnectionOptions',
  'MysqlConnectionOptions',
  'SqliteConnectionOptions',
  'BetterSqlite3ConnectionOptions',
  'SqlServerConnectionOptions',
  'OracleConnectionOptions',
  'CockroachConnectionOptions',
  'MongoConnectionOptions',
];

/**
 * Option keys only TypeORM's options have: an object holding one is TypeORM's options even when its
 * `type` comes in through a spread (`{ migrationsRun: true, ...sharedConnectionConfig }`).
 */
export const TYPEORM_ONLY_OPTION_KEYS: readonly string[] = ['migrationsRun', 'migrationsTransactionMode', 'migrationsTableName'];

/**
 * Keys that, beside `synchronize`, make an object TypeORM's options (`{ synchronize, entities:
 * ['dist/**\/*.entity.js'] }` with its driver read from the environment): no other ORM's options pair
 * `synchronize` with entities, migrations or subscribers.
 */
export const TYPEORM_SYNCHRONIZE_COMPANION_KEYS: readonly string[] = ['entities', 'migrations', 'subscribers'];

/** `type:` values of TypeORM's options: an object with one of these beside `synchronize` is TypeORM's options. */
export const TYPEORM_DRIVER_TYPES: readonly string[] = [
  'postgres',
  'mysql',
  'mariadb',
  'sqlite',
  'better-sqlite3',
  'mssql',
  'oracle',
  'cockroachdb',
  'sap',
  'spanner',
  'aurora-mysql',
  'aurora-postgres',
  'capacitor',
  'cordova',
  'expo',
  'nativescript',
  'react-native',
  'sqljs',
  'mongodb',
];
