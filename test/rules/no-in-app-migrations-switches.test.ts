import { ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

// TypeORM's `synchronize` driven by an environment variable that is off unless someone sets it is a
// developer's switch: a deployed replica nobody configured for it writes no schema. A switch that is
// on unless turned off, a value read elsewhere, and `migrationsRun` switched on the same way (the
// service's way to migrate at start) are reported.
const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const option = (line: number, column: number) => ({ messageId: 'schemaWriteOption' as const, line, column });
const TYPEORM = "import { DataSource } from 'typeorm';";
const source = (synchronize: string) =>
  lines(
    TYPEORM,
    'export const source = new DataSource({',
    "  type: 'postgres',",
    '  url: process.env.DATABASE_URL,',
    `  synchronize: ${synchronize},`,
    '});',
  );

ruleTester.run('no-in-app-migrations (opt-in switches)', rule, {
  valid: [
    source("process.env.TYPEORM_SYNCHRONIZE === 'true'"),
    source("'1' == process.env.DB_SYNC"),
    source('!!process.env.DB_SYNC'),
    source('Boolean(process.env.DB_SYNC)'),
    source("process.env['DB_SYNC']?.toLowerCase() === 'true'"),
    source("String(process.env.DB_SYNC).trim() === 'yes'"),
    // off unless one of them, or both, are turned on
    source("process.env.DB_SYNC === 'true' || process.env.SCHEMA_SYNC === '1'"),
    source("process.env.NODE_ENV !== 'production' && process.env.DB_SYNC === 'true'"),
    // the switch's own value, with `false` when it is unset
    source('process.env.TYPEORM_SYNCHRONIZE || false'),
    source('process.env.DB_SYNC ?? false'),
    // through a const
    lines("const syncSchema = process.env.DB_SYNC === 'true';", source('syncSchema')),
    // options typed as TypeORM's, handed over elsewhere
    lines(
      "import type { DataSourceOptions } from 'typeorm';",
      "export const options: DataSourceOptions = { type: 'postgres', synchronize: process.env.TYPEORM_SYNC === 'true' };",
    ),
  ],
  invalid: [
    // on everywhere but production: staging and any environment that forgets NODE_ENV
    { code: source("process.env.NODE_ENV !== 'production'"), errors: [option(5, 3)] },
    // on unless turned off
    { code: source("process.env.DB_SYNC !== 'false'"), errors: [option(5, 3)] },
    { code: source("process.env.DB_SYNC ?? 'true'"), errors: [option(5, 3)] },
    // compared with a value that does not turn it on, or read raw (any non-empty string is truthy)
    { code: source("process.env.DB_SYNC === 'false'"), errors: [option(5, 3)] },
    { code: source('process.env.DB_SYNC'), errors: [option(5, 3)] },
    // a truthiness test of a value every deployment sets (the database's name) is on
    { code: source('!!process.env.TYPEORM_DATABASE'), errors: [option(5, 3)] },
    { code: source('Boolean(process.env.DATABASE_URL)'), errors: [option(5, 3)] },
    // one side on by default
    { code: source("process.env.DB_SYNC === 'true' || process.env.NODE_ENV !== 'production'"), errors: [option(5, 3)] },
    // a fallback that is on, or a fallback to a value every deployment sets
    { code: source('process.env.DB_SYNC || true'), errors: [option(5, 3)] },
    { code: source('process.env.TYPEORM_DATABASE || false'), errors: [option(5, 3)] },
    // a value read elsewhere: its default is not in view
    { code: source("config.get('DB_SYNC') === 'true'"), errors: [option(5, 3)] },
    // a const that is reassigned is no constant
    { code: lines("let sync = process.env.DB_SYNC === 'true';", 'sync = true;', source('sync')), errors: [option(7, 3)] },
    // migrationsRun switched on the same way is the service migrating at start
    {
      code: lines(TYPEORM, "new DataSource({ type: 'postgres', migrationsRun: process.env.RUN_MIGRATIONS === 'true' });"),
      errors: [option(2, 36)],
    },
  ],
});
