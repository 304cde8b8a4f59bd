// What a migrator's command lines and a package's migrate scripts look like: the commands that
// migrate (`knex migrate:latest`), the script names that run them (`db:migrate`), the flags whose
// value is a file the command reads (`-d src/data-source.ts`), and the words that make a script or
// a file a tool for writing migrations by hand. Plain data, read by the migration rules.

/** A migration command of a migrator's CLI (`knex migrate:latest`, `sequelize db:migrate`, `typeorm migration:run`, `migrate up`). */
export const MIGRATOR_CLI_COMMAND = /\b(?:db:migrate|migrate:[a-z]+|migration:run|migrate\s+(?:up|latest|deploy|dev|reset))\b/i;

/**
 * Flags of migrator command lines whose value is a configuration file the command reads, not a
 * script it runs (`typeorm migration:run -d src/data-source.ts`, `knex migrate:latest --knexfile
 * knexfile.ts`, `sequelize db:migrate --config config.js`, `mikro-orm migration:up --config …`),
 * or the table definitions a schema tool reads to write migrations (`drizzle-kit generate --schema
 * src/db/tables.ts`): the module that defines the tables is imported by the app, never started.
 */
export const MIGRATOR_CONFIG_FLAGS: readonly string[] = ['-d', '--dataSource', '--data-source', '--knexfile', '--config', '--schema'];

/**
 * TypeORM's CLI flags that name its data source (`typeorm migration:run -d src/data-source.ts`,
 * `--dataSource=…`). The CLI turns `synchronize` and `migrationsRun` off in what it reads, so such
 * options in a file only the CLI reads start nothing.
 */
export const TYPEORM_DATA_SOURCE_FLAGS: readonly string[] = ['-d', '--dataSource', '--data-source'];

/**
 * Words that, as a segment of a migrate script's name (`migration:generate`, `migrate:dev`,
 * `db:migrate:reset`, `db:migrate:check`) or after `migrate` in a file's name (`migrate-dev.ts`),
 * make it a tool for writing, inspecting, verifying or undoing migrations by hand or in CI, not
 * the deploy step every pod runs.
 */
export const MIGRATION_AUTHORING_WORDS: readonly string[] =
  'generate create new make revert rollback undo down dev reset status show diff fresh drop redo check verify'.split(' ');

/** package.json scripts that migrate (`migrate`, `db:migrate`, `migrate:latest`, `migration:run`): the files they run are migrate entrypoints. */
export const MIGRATE_SCRIPT_NAME = /(?:^|:)(?:db:)?migrat(?:e|ion|ions)(?:$|:)/i;
