import { ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

// TypeORM's `synchronize` (and `migrationsRun`) driven by an environment variable or a config lookup is
// reported whatever the switch: the replicas are the ones that get configured, and every one that has
// it set alters the schema at start. Only the literal `false`, or no option at all, is quiet.
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

ruleTester.run('no-in-app-migrations (environment switches)', rule, {
  valid: [
    source('false'),
    source('(false)'),
    lines(TYPEORM, 'export const source = new DataSource({', "  type: 'postgres',", '  url: process.env.DATABASE_URL,', '});'),
    // options typed as TypeORM's, handed over elsewhere, switched off
    lines(
      "import type { DataSourceOptions } from 'typeorm';",
      "export const options: DataSourceOptions = { type: 'postgres', synchronize: false };",
    ),
  ],
  invalid: [
    // switched on when someone sets the variable: the replicas someone configures alter the schema at boot
    { code: source("process.env.TYPEORM_SYNCHRONIZE === 'true'"), errors: [option(5, 3)] },
    { code: source("'1' == process.env.SCHEMA_SYNC"), errors: [option(5, 3)] },
    { code: source('!!process.env.SCHEMA_SYNC'), errors: [option(5, 3)] },
    { code: source('Boolean(process.env.SCHEMA_SYNC)'), errors: [option(5, 3)] },
    { code: source("process.env['SCHEMA_SYNC']?.toLowerCase() === 'true'"), errors: [option(5, 3)] },
    { code: source("process.env.SCHEMA_SYNC === 'true' || process.env.ORM_SYNC === '1'"), errors: [option(5, 3)] },
    { code: source('process.env.TYPEORM_SYNCHRONIZE || false'), errors: [option(5, 3)] },
    { code: source('process.env.SCHEMA_SYNC ?? false'), errors: [option(5, 3)] },
    { code: lines("const syncSchema = process.env.SCHEMA_SYNC == 'true';", source('syncSchema')), errors: [option(6, 3)] },
    {
      code: lines(
        "import type { DataSourceOptions } from 'typeorm';",
        "export const options: DataSourceOptions = { type: 'postgres', synchronize: process.env.ORM_SYNC === 'true' };",
      ),
      errors: [option(2, 63)],
    },
    // on everywhere but production: staging and any environment that forgets NODE_ENV
    { code: source("process.env.NODE_ENV !== 'production'"), errors: [option(5, 3)] },
    // on unless turned off
    { code: source("process.env.SCHEMA_SYNC !== 'false'"), errors: [option(5, 3)] },
    { code: source("process.env.SCHEMA_SYNC ?? 'true'"), errors: [option(5, 3)] },
    { code: source('process.env.SCHEMA_SYNC'), errors: [option(5, 3)] },
    { code: source('Boolean(process.env.DATABASE_URL)'), errors: [option(5, 3)] },
    // a value read elsewhere
    { code: source("config.get('SCHEMA_SYNC') === 'true'"), errors: [option(5, 3)] },
    // migrationsRun switched on the same way is the service migrating at start
    {
      code: lines(TYPEORM, "new DataSource({ type: 'postgres', migrationsRun: process.env.RUN_MIGRATIONS === 'true' });"),
      errors: [option(2, 36)],
    },
  ],
});
