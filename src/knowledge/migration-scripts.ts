// What a migrator's command lines and a package's migrate scripts look like: the commands that
// migrate (`knex migrate:latest`), the script names that run them (`db:migrate`), the flags whose
// value is a file the command reads (`-d src/data-source.ts`), and the words that make a script or
// a file a tool for writing migrations by hand. Plain data, read by the migration rules.
import type { MigratorLibrary } from './migrators.js';

/** A migration command of a migrator's CLI (`knex migrate:latest`, `sequelize db:migrate`, `typeorm migration:run`, `migrate up`). */
export const MIGRATOR_CLI_COMMAND = /\b(?:db:migrate|migrate:[a-z]+|migration:run|migrate\s+(?:up|latest|deploy|dev|reset))\b/i;

/** Flags, each with the value it may take (`--knexfile knexfile.js`, `-d src/data-source.ts`), between a CLI and its subcommand. */
const FLAGS = String.raw`(?:-\S+(?:\s+[^-\s]\S*)?\s+)*`;
/** Where a command starts (the line's start or after `&&`, `;`, `|`) and the launcher before the tool (`npx`, `pnpm exec`, `node_modules/.bin/`). */
const PROGRAM = String.raw`(?:^|[;&|]\s*)(?:(?:npx|bunx|pnpm\s+exec|pnpm|yarn)\s+(?:-\S+\s+)*)?(?:\S*/)?`;
const command = (tool: string, subcommand: string): RegExp => new RegExp(`${PROGRAM}(${tool}\\s+${FLAGS}${subcommand})`);

/**
 * Migrators' CLI commands that apply the pending migrations (or sync the schema, TypeORM's
 * `schema:sync`), in a command line spawned from app code (`npx sequelize db:migrate`, `knex
 * --knexfile k.js migrate:latest`, `typeorm migration:run -d …`): the tool where a command starts,
 * its flags, the subcommand. Prisma's are told apart by `prismaSchemaCommand`; the commands that
 * list, create or undo migrations (`db:migrate:status`, `migrate:make`) are not here.
 */
export const MIGRATOR_APPLY_COMMANDS: ReadonlyArray<{ library: MigratorLibrary; pattern: RegExp }> = [
  { library: 'sequelize', pattern: command(String.raw`sequelize(?:-cli)?`, String.raw`db:migrate(?![\w:-])`) },
  { library: 'knex', pattern: command('knex', String.raw`migrate:(?:latest|up)\b`) },
  { library: 'typeorm', pattern: command(String.raw`typeorm(?:-ts-node-(?:commonjs|esm))?`, String.raw`(?:migration:run|schema:sync)\b`) },
  { library: 'mikro-orm', pattern: command(String.raw`mikro-orm(?:-esm)?`, String.raw`migration:up\b`) },
  { library: 'node-pg-migrate', pattern: command('node-pg-migrate', String.raw`up\b`) },
  { library: 'drizzle', pattern: command('drizzle-kit', String.raw`migrate\b`) },
];

/** The migrator and the command that applies its migrations in a command line (`sequelize db:migrate`), or undefined. */
export function migratorApplyCommand(commandLine: string): { library: MigratorLibrary; command: string } | undefined {
  const line = commandLine.replace(/\s+/g, ' ').trim();
  for (const { library, pattern } of MIGRATOR_APPLY_COMMANDS) {
    const match = pattern.exec(line);
    if (match) return { library, command: match[1]! };
  }
  return undefined;
}

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
 * The base name of TypeORM's CLI configuration (`ormconfig.ts`, `ormconfig.js`). Since TypeORM 0.3
 * nothing loads it by itself: the CLI reads it when a script names it (`typeorm migration:run -d
 * ormconfig.ts`), and the app only when a module imports it. A `new DataSource(…)` built there and
 * imported by no module is the CLI's, which turns `synchronize` and `migrationsRun` off.
 */
export const TYPEORM_CLI_CONFIG_NAME = /^ormconfig\.[cm]?[jt]s$/;

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

/**
 * The key of a command table's entry that names a database command (`'db:sync': dbSync`,
 * `'db:migrate': dbMigrate`, `'schema:drop': drop`): the function is run when that command is
 * asked for by name, by an operator's command line or a one-off task's event.
 */
export const DATABASE_COMMAND_KEY = /^(?:db|database|schema):[\w-]+(?::[\w-]+)*$/i;
