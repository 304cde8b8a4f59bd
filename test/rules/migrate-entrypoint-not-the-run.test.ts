// Files named like a migrate entrypoint that are not the run every pod starts: a module that only
// re-exports another (a generated CommonJS interop shim, an ESM barrel), and an operator's
// command class of an admin CLI (oclif, clipanion). A launcher that requires the run for its
// effects, and a command class that a package.json migrate script runs, are still checked.
import { ruleTester } from './rule-tester.js';
import { migrateEntrypoint, type MigrateEntrypointMessageIds } from '../../rules/migrate-entrypoint.js';

/** Settings that name the file a migrate entrypoint (not found by its name alone): its URL is checked. */
const namedEntrypoint = (filename: string) => ({ 'replica-guard': { migrateEntrypoints: [filename] } });

const lines = (...l: string[]) => l.join('\n');
const rule = migrateEntrypoint as unknown as Parameters<typeof ruleTester.run<MigrateEntrypointMessageIds, readonly unknown[]>>[1];
const COMMONJS = { sourceType: 'commonjs' } as never;
const noLockAt = (line: number, column: number) => ({ messageId: 'noLock' as const, line, column });
const swallowed = (line: number, column: number) => ({ messageId: 'swallowedFailure' as const, line, column });

const SHIM = lines(
  "'use strict';",
  "const target = require('../build/migrate.js');",
  "const value = target && target.__esModule && 'default' in target ? target.default : target;",
  'module.exports = value;',
  'for (const key of Object.keys(target)) {',
  "  if (key === 'default' || Object.prototype.hasOwnProperty.call(value, key)) continue;",
  '  try {',
  '    Object.defineProperty(value, key, { get: () => target[key], enumerable: true });',
  '  } catch {}',
  '}',
);

const COMMAND = lines(
  "const { Command, Flags } = require('@oclif/core');",
  "const { upgradeSchema } = require('@acme/store/upgrade');",
  'class UpgradeCommand extends Command {',
  '  async run() {',
  '    const { flags } = await this.parse(UpgradeCommand);',
  '    for (const tenant of flags.tenants) {',
  '      try {',
  '        await upgradeSchema(tenant);',
  '      } catch (error) {',
  '        console.error(error);',
  '      }',
  '    }',
  '  }',
  '}',
  "UpgradeCommand.description = 'Upgrade the schema. Stop the server first.';",
  'module.exports = UpgradeCommand;',
);

// A migration engine's module named `migrate.ts`: ES module stand-ins for CommonJS, then declarations only.
const ENGINE = lines(
  "import { createRequire } from 'node:module';",
  "import path from 'node:path';",
  "import { fileURLToPath } from 'node:url';",
  "import { pool } from './db/pool.js';",
  'const require = createRequire(import.meta.url);',
  'const here = path.dirname(fileURLToPath(import.meta.url));',
  "const { steps } = require('./migrations/index.json');",
  'export async function migrate(schema: string): Promise<void> {',
  '  for (const step of steps as string[]) {',
  '    try {',
  '      await pool.query(`SET search_path TO ${schema}`);',
  "      await pool.query(require(path.join(here, 'migrations', step)).sql);",
  '    } catch (error) {',
  "      console.warn('step failed', step, error);",
  '    }',
  '  }',
  '}',
);

/** A migration library module as tsc compiles it to CommonJS: helpers, the `__esModule` marker, exports. */
const COMPILED_ENGINE = lines(
  '"use strict";',
  'var __importDefault = (this && this.__importDefault) || function (mod) {',
  '    return (mod && mod.__esModule) ? mod : { "default": mod };',
  '};',
  'Object.defineProperty(exports, "__esModule", { value: true });',
  'exports.runMigrations = runMigrations;',
  'const path_1 = __importDefault(require("path"));',
  'const typeorm_1 = require("typeorm");',
  'async function runMigrations(options) {',
  '    const source = new typeorm_1.DataSource({ ...options, migrations: [path_1.default.join(__dirname, "migrations/*.js")] });',
  '    await source.initialize();',
  '    await source.runMigrations();',
  '    await source.destroy();',
  '}',
);

/** An operator's script that copies an old store into the database, reading its own flags. */
const COPY_SCRIPT = (parser: string) =>
  lines(
    parser,
    "import { Client } from 'pg';",
    "import { migrate } from './copy-rows.js';",
    'async function main() {',
    '  const opts = readFlags(process.argv.slice(2));',
    '  const db = new Client({ connectionString: opts.connectionString });',
    '  await db.connect();',
    '  await migrate(db, opts.from);',
    '}',
    "main().catch((error) => console.error('copy failed', error));",
  );

// A generator of a types file from the migration files (run by a `migrations:types`-like script): it reads files and writes one.
const GENERATOR = (head: string, tail = '') =>
  lines(
    head,
    'function build(): void {',
    "  const folder = path.join(__dirname, '..', 'migrations');",
    "  const names = fs.readdirSync(folder).filter((name) => name.endsWith('.sql')).sort();",
    "  const body = names.map((name, index) => `  '${name.replace(/\\.sql$/, '')}': ${index + 1},`).join('\\n');",
    "  fs.writeFileSync(path.join(__dirname, '..', 'src', 'migration-ids.ts'), `export const MigrationIds = {\\n${body}\\n} as const;\\n`);",
    '}',
    tail,
    'build();',
  );
const FS_AND_PATH = "import fs from 'node:fs';\nimport path from 'path';";

ruleTester.run('migrate-entrypoint (files that are not the run)', rule, {
  valid: [
    // a generated CommonJS shim in front of the built module
    { code: SHIM, filename: 'packages/store/cjs/migrate.cjs', languageOptions: COMMONJS },
    // the same with a compiler's interop helper
    {
      code: lines(
        "'use strict';",
        "Object.defineProperty(exports, '__esModule', { value: true });",
        "__exportStar(require('./lib/migrate'), exports);",
      ),
      filename: 'src/migrate.js',
      languageOptions: COMMONJS,
    },
    // an ESM barrel
    { code: lines("export * from './runner/migrate.js';", "export { default } from './runner/migrate.js';"), filename: 'src/migrate.ts' },
    // an admin CLI's command class, run by hand
    { code: COMMAND, filename: 'packages/cli/src/commands/migrate.js', languageOptions: COMMONJS },
    {
      code: lines(
        "import { Command } from 'clipanion';",
        "import { migrateAll } from '../store';",
        'export class MigrateCommand extends Command {',
        "  static paths = [['migrate']];",
        '  async execute() {',
        '    await migrateAll();',
        '  }',
        '}',
      ),
      filename: 'tools/admin/migrate.ts',
    },
    // an operator's script found by its name that reads its own flags: nopt, minimist, node:util's parseArgs
    {
      code: COPY_SCRIPT(
        "import nopt from 'nopt';\nconst readFlags = (argv: string[]) => nopt({ connectionString: String, from: String }, {}, argv, 0);",
      ),
      filename: 'src/scripts/migrate-store-to-pg.ts',
    },
    {
      code: COPY_SCRIPT(
        "import { parseArgs } from 'node:util';\nconst readFlags = (args: string[]) => parseArgs({ args, options: { connectionString: { type: 'string' }, from: { type: 'string' } } }).values;",
      ),
      filename: 'scripts/migrate-legacy.ts',
    },
    // a library module named like an entrypoint that only declares and exports: loading it runs nothing
    { code: ENGINE, filename: 'packages/data/migrate.ts' },
    // a queue job class in a file named like one, its handler's catch included
    {
      code: lines(
        "import { runTenantMigrations } from '../../database/migrations';",
        "import { BaseJob } from '../base-job';",
        'export class MigrateTenantJob extends BaseJob<{ tenantId: string }> {',
        "  static queue = 'tenant-migrations';",
        '  async handle(job: { data: { tenantId: string } }) {',
        '    try {',
        '      await runTenantMigrations(job.data.tenantId);',
        '    } catch (error) {',
        "      this.log.error('tenant migration failed', error);",
        '    }',
        '  }',
        '}',
      ),
      filename: 'src/events/migrations/run-migrations.ts',
    },
    // a CommonJS module that exports what it declares
    {
      code: lines(
        "const { pool } = require('./db');",
        'async function migrate() {',
        "  try { await pool.query('CREATE TABLE IF NOT EXISTS jobs (id int)'); } catch (error) { console.error(error); }",
        '}',
        'module.exports = { migrate };',
      ),
      filename: 'lib/migrate.js',
      languageOptions: COMMONJS,
    },
    // the same library module compiled to CommonJS by tsc: its `__esModule` marker is an export, not a run
    {
      code: COMPILED_ENGINE,
      filename: 'dist/migrate.js',
      languageOptions: COMMONJS,
    },
    // a generator that only reads and writes files: no database client, migrator or project module in reach
    { code: GENERATOR(FS_AND_PATH), filename: 'scripts/migrate-types.ts' },
    {
      code: lines(
        "const { readdir, readFile, writeFile } = require('fs/promises');",
        "const { join } = require('node:path');",
        'async function main() {',
        "  const folder = join(__dirname, 'migrations');",
        '  const names = (await readdir(folder)).sort();',
        "  const heads = await Promise.all(names.map(async (name) => (await readFile(join(folder, name), 'utf8')).split('\\n')[0]));",
        "  await writeFile(join(__dirname, 'MIGRATIONS.md'), names.map((name, i) => `- ${name}: ${heads[i]}`).join('\\n'));",
        '}',
        'main().catch((error) => { console.error(error); process.exit(1); });',
      ),
      filename: 'scripts/migrate-docs.js',
      languageOptions: COMMONJS,
    },
  ],
  invalid: [
    // the compiled module that also starts its run when loaded
    {
      code: lines(COMPILED_ENGINE, 'runMigrations({ type: "postgres", url: process.env.POSTGRES_MIGRATE_URL }).catch(console.error);'),
      filename: 'dist/migrate.js',
      languageOptions: COMMONJS,
      errors: [noLockAt(12, 11), swallowed(15, 82)],
    },
    // a launcher starts the run for its effects: it is the entrypoint
    {
      code: lines("require('./register');", "const run = require('../build/migrate.js');", 'module.exports = run;'),
      filename: 'bin/migrate.js',
      languageOptions: COMMONJS,
      errors: [noLockAt(1, 1)],
    },
    // a shim that also runs something is not only a shim
    {
      code: lines("const { migrate } = require('../build/migrate.js');", 'module.exports = migrate;', 'migrate().catch(() => {});'),
      filename: 'cjs/migrate.cjs',
      languageOptions: COMMONJS,
      errors: [noLockAt(3, 1), swallowed(3, 17)],
    },
    // the same script with no flags of its own; and with flags, but named as the entrypoint by the settings
    {
      code: COPY_SCRIPT("const readFlags = (_argv: string[]) => ({ connectionString: process.env.POSTGRES_MIGRATE_URL, from: 'data' });"),
      filename: 'src/scripts/migrate-store-to-pg.ts',
      errors: [noLockAt(8, 9), swallowed(10, 14)],
    },
    {
      code: COPY_SCRIPT("import minimist from 'minimist';\nconst readFlags = (argv: string[]) => minimist(argv);"),
      filename: 'src/scripts/migrate-store-to-pg.ts',
      settings: { 'replica-guard': { migrateEntrypoints: ['src/scripts/migrate-store-to-pg.ts'] } },
      errors: [noLockAt(9, 9), swallowed(11, 14)],
    },
    // the same engine module, run when loaded: it is the entrypoint
    {
      code: lines(ENGINE, "await migrate('public');"),
      filename: 'packages/data/migrate.ts',
      errors: [noLockAt(18, 7)],
    },
    // a CommonJS module that exports and also starts its run
    {
      code: lines(
        "const { pool } = require('./db');",
        'async function migrate() {',
        "  await pool.query('CREATE TABLE IF NOT EXISTS jobs (id int)');",
        '}',
        'module.exports = { migrate };',
        'migrate().catch(console.error);',
      ),
      filename: 'lib/migrate.js',
      languageOptions: COMMONJS,
      errors: [noLockAt(6, 1), swallowed(6, 17)],
    },
    // a class extending the project's own `Command` is not a command-line framework's (knex locks its own runs: no `noLock`)
    {
      code: lines(
        "import { Command } from './command';",
        "import knex from 'knex';",
        'export class Migrate extends Command {}',
        'const db = knex({ client: "pg", connection: process.env.DATABASE_URL });',
        'await db.migrate.latest();',
      ),
      filename: 'src/migrate.ts',
      settings: namedEntrypoint('src/migrate.ts'),
      errors: [{ messageId: 'appUrl', line: 4, column: 45 }],
    },
    // the same generator beside a migrator that takes no lock, a project module, a module loaded by a computed name, or a `fetch`
    {
      code: GENERATOR(
        lines(FS_AND_PATH, "import { Umzug } from 'umzug';", "import { context } from './context.js';"),
        lines('const umzug = new Umzug({ migrations: { glob: "migrations/*.js" }, context, logger: console });', 'await umzug.up();'),
      ),
      filename: 'scripts/migrate-types.ts',
      errors: [noLockAt(12, 7)],
    },
    {
      code: GENERATOR(
        lines(FS_AND_PATH, "import { db } from '../src/db.js';"),
        "await db.query(fs.readFileSync(path.join(__dirname, 'schema.sql'), 'utf8'));",
      ),
      filename: 'scripts/migrate-types.ts',
      errors: [noLockAt(1, 1)],
    },
    {
      code: GENERATOR(
        FS_AND_PATH,
        "for (const name of fs.readdirSync(path.join(__dirname, 'migrations'))) await require(path.join(__dirname, 'migrations', name)).up();",
      ),
      filename: 'scripts/migrate-types.ts',
      errors: [noLockAt(1, 1)],
    },
    {
      code: GENERATOR(
        FS_AND_PATH,
        "await fetch(process.env.SQL_API_URL!, { method: 'POST', body: fs.readFileSync(path.join(__dirname, 'schema.sql'), 'utf8') });",
      ),
      filename: 'scripts/migrate-types.ts',
      errors: [noLockAt(1, 1)],
    },
    // a script of file modules only that writes no file prints the SQL for `| psql` to run: it is the run
    {
      code: lines(
        FS_AND_PATH,
        "const folder = path.join(__dirname, 'migrations');",
        "for (const name of fs.readdirSync(folder).sort()) process.stdout.write(fs.readFileSync(path.join(folder, name), 'utf8'));",
      ),
      filename: 'scripts/migrate.ts',
      errors: [noLockAt(1, 1)],
    },
  ],
});
