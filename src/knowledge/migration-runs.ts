// Names that say a call runs the schema migrations, beside those of migrators.ts: an application's
// migration module asked to migrate (`apos.migration.migrate()`, `app.migration.migrate()`) and a
// project's wrapper named for the migrator library it runs (`drizzleMigrate()`, `knexMigrate()`).
import { plainName } from './names.js';

/**
 * Whether a member called `name` is an application's migration module (`migration` of
 * `self.apos.migration`, `schemaMigration` of `app.schemaMigration`): one module, the singular,
 * reached as a member of the application. A bare `migration` (one migration of a runner's loop) is not.
 */
export function namesMigrationModule(name: string): boolean {
  return /^(?:db|database|schema)?migration$/.test(plainName(name));
}

/** Libraries whose name a project's wrapper of their migrator carries (`drizzleMigrate`, `migrateWithKnex`). */
const MIGRATOR_LIBRARY_WORDS = 'drizzle|knex|prisma|typeorm|sequelize|umzug|kysely|mikroorm|postgrator|pgmigrate|nodepgmigrate';

const LIBRARY_RUNNER_NAMES: readonly RegExp[] = [
  new RegExp(`^(?:${MIGRATOR_LIBRARY_WORDS})migrate$`),
  new RegExp(`^(?:run|apply)(?:${MIGRATOR_LIBRARY_WORDS})migrations$`),
  new RegExp(`^migrate(?:with)?(?:${MIGRATOR_LIBRARY_WORDS})$`),
];

/**
 * Whether a function called `name` runs the migrations of a migrator library it names
 * (`drizzleMigrate()`, `runKnexMigrations()`, `migrateWithDrizzle()`, `typeormMigrate()`): a wrapper of that
 * migrator, a runner by its name alone.
 */
export function namesLibraryMigrationRunner(name: string): boolean {
  const plain = plainName(name);
  return LIBRARY_RUNNER_NAMES.some((pattern) => pattern.test(plain));
}

/**
 * Methods that send one statement to a database beside `SQL_METHODS`: ClickHouse's
 * `client.command({ query })` and `client.exec({ query })`, which DDL goes through.
 */
export const STATEMENT_METHODS: readonly string[] = ['command', 'exec'];

/**
 * The names a function-as-a-service platform calls a module's exported entry by (AWS Lambda's
 * `exports.handler`, the default of its templates): a function invoked on its own, per event.
 */
export const TASK_HANDLER_NAMES: readonly string[] = ['handler'];

/**
 * A NestJS application built (`NestFactory.create(AppModule)`, `NestFactory.createApplicationContext(…)`):
 * a server only when something then listens; a script builds one for its providers and closes it.
 */
export const APPLICATION_BUILDS = /\bNestFactory\s*\.\s*create(?:ApplicationContext)?\b/;

/**
 * A folder of schema update steps in a module path a loop loads one version at a time
 * (`` `/updates/${version}` ``, `` `./db/schema/v${version}` ``, `'./upgrades/' + name`).
 */
export const UPDATE_STEP_FOLDER = /(?:^|[/'"`])(?:updates?|upgrades?|schemas?|migrations?)\//;

/** Words every path `UPDATE_STEP_FOLDER` matches holds (a migrations folder's holds `migrat`): the codemod's pre-filter. */
export const UPDATE_STEP_FOLDER_WORDS: readonly string[] = [
  'update/',
  'updates/',
  'upgrade/',
  'upgrades/',
  'schema/',
  'schemas/',
  'migrat',
];

/** Methods that run a loaded update step (`new Step().run(store)`, `step.up(db)`). */
export const UPDATE_STEP_METHODS: readonly string[] = ['run', 'up', 'apply', 'migrate', 'upgrade', 'execute'];

/** Calls whose callback is the body of a loop over versions (`versions.forEach`, `async.eachSeries(pending, …)`). */
export const VERSION_LOOP_CALLS = /^(?:forEach|map|reduce|each|eachSeries|eachOfSeries|mapSeries|forEachSeries|series|waterfall)$/;

/** Words every name `namesSchemaUpdater` takes holds, in any case: the codemod's pre-filter. */
export const SCHEMA_UPDATER_WORDS: readonly string[] = [
  'pdateDb',
  'pdateDB',
  'pdatedb',
  'pdate_db',
  'pdateDatabase',
  'pdatedatabase',
  'pdate_database',
]
  .flatMap((word) => [word, word.replace('pdate', 'pgrade')])
  .flatMap((word) => [word, word.toUpperCase()]);

/**
 * Whether a function called `name` brings the database's schema up to date by its name alone:
 * `updateDb()`, `upgradeDatabase()`, `updateDbSchema()` — an update or upgrade verb on the
 * database itself. Asked only of functions the analysis cannot read (a package, a module out of
 * reach) called with nothing or a database handle; `updateDbRecord(user)` names something else.
 */
export function namesSchemaUpdater(name: string): boolean {
  return /^(?:update|upgrade)(?:db|database)(?:schema)?$/.test(plainName(name));
}

/** Names of calls worth asking about across files: runners and database set-up (`initDb`, `setupDatabase`, `prepareSchema`, `dbInit`). */
export const CROSS_FILE_CANDIDATE = /migrat|database|schema|db(?![a-z])|^db/i;
