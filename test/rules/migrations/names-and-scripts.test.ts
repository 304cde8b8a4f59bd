// The name evidence for migration runners and database handles, and the files package.json
// `migrate` scripts run.
import { afterAll, describe, expect, test, vi } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Linter } from 'eslint';
import { DATABASE_MODULE_SPECIFIER, namesDatabaseAccess } from '../../../src/knowledge/database-access.js';
import { migrateEntrypoint } from '../../../rules/migrate-entrypoint.js';
import {
  mayNameMigrationRun,
  namesDatabaseHandle,
  namesMigrationRunner,
  namesMigrator,
  withoutFailureTail,
} from '../../../src/knowledge/migrators.js';
import {
  isRunByMigrateScript,
  isRunOnlyByAuthoringScripts,
  isRunOnlyByTestScripts,
  scriptFileArguments,
} from '../../../rules/migrations/package-scripts.js';

describe('names', () => {
  test.each([
    'runMigrations',
    'migrateDb',
    'migrateDatabase',
    'migrateToLatest',
    'applyMigrations',
    'runDbMigrations',
    'dbMigrate',
    '_runPendingMigrations',
    'runTenantMigrations',
    'runMultitenantMigrations',
    'runMigrationsOnTenant',
    'applyMigrationsForAllTenants',
  ])('%s names a migration runner', (name) => expect(namesMigrationRunner(name)).toBe(true));
  test.each([
    'migrate',
    'migrateUser',
    'createMigrate',
    'getMigrations',
    'runMigrationFiles',
    'migrateAll',
    'migrateToLatestOrThrow',
    'runMigrationCheck',
    'runTenantMigration',
    'runMigrationsTests',
  ])('%s needs more evidence', (name) => expect(namesMigrationRunner(name)).toBe(false));
  test('a tail that says how a call fails is set aside only at the end of a name', () => {
    expect(['migrateToLatestOrThrow', 'runMigrationsOrExit', 'migrateOrFail'].map(withoutFailureTail)).toEqual([
      'migrateToLatest',
      'runMigrations',
      'migrate',
    ]);
    expect(['migrateToLatest', 'throwOrMigrate', 'OrThrow', 'migrateOrThrown'].map(withoutFailureTail)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
  test('the verb and its runner forms may name a run; domain nouns, other verbs, getters and predicates do not', () => {
    expect(
      ['migrate', 'migrateUp', 'migrateAll', 'runMigrationFiles', 'applyMigration', '_runMigrations'].map(mayNameMigrationRun),
    ).toEqual([true, true, true, true, true, true]);
    expect(
      ['migrateKeystore', 'migrateMemberTier', 'migrateLegacySettings', 'planRegionMigration', 'renameMigrationFiles'].map(
        mayNameMigrationRun,
      ),
    ).toEqual([false, false, false, false, false]);
    expect(
      ['getMigrator', 'hasPendingMigrations', 'createMigrate', 'listMigrations', 'requiresMigration', 'render'].map(mayNameMigrationRun),
    ).toEqual([false, false, false, false, false, false]);
  });
  test('database handles and migrators', () => {
    expect(['db', 'dbClient', 'DatabaseClient', 'knex', 'appDataSource', 'sequelize', 'pgPool', 'orm'].every(namesDatabaseHandle)).toBe(
      true,
    );
    expect(['state', 'settings', 'config', 'user', 'store'].some(namesDatabaseHandle)).toBe(false);
    expect(['umzug', 'migrator', 'migrations'].every(namesMigrator)).toBe(true);
    expect(['migration', 'persistor'].some(namesMigrator)).toBe(false);
  });
  test('names and modules that show a database, for runners judged by their body', () => {
    expect(['pool', 'conn', 'trx', 'queryRunner', 'entityManager', 'PoolClient', 'Knex'].every(namesDatabaseAccess)).toBe(true);
    expect(['prefs', 'settings', 'file', 'steps', 'migrations', 'upgraded'].some(namesDatabaseAccess)).toBe(false);
    const specifiers = [
      'pg',
      'better-sqlite3',
      '@prisma/client',
      'drizzle-orm/node-postgres',
      './db',
      '@app/database',
      '../postgres/connection',
    ];
    expect(specifiers.every((s) => DATABASE_MODULE_SPECIFIER.test(s))).toBe(true);
    expect(
      ['node:fs/promises', './logger', '@server/lib/settings', 'lodash', './dbg-tools'].some((s) => DATABASE_MODULE_SPECIFIER.test(s)),
    ).toBe(false);
  });
});

describe('package.json migrate scripts', () => {
  const root = mkdtempSync(join(tmpdir(), 'replica-guard-scripts-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  test('the file-like words of a command line', () => {
    expect(scriptFileArguments('tsx ./src/db/up.ts --env=prod && node dist/seed.js')).toEqual(['src/db/up.ts', 'dist/seed.js']);
    expect(scriptFileArguments('prisma migrate deploy')).toEqual([]);
    // A migrator's configuration file is read by the command, not run: no entrypoint.
    expect(scriptFileArguments('typeorm-ts-node-commonjs migration:run -d ./src/data-source.ts')).toEqual([]);
    expect(scriptFileArguments('knex migrate:latest --knexfile src/db/knexfile.ts')).toEqual([]);
    expect(scriptFileArguments('tsx src/migrate.ts --config config/db.json && typeorm migration:run --dataSource src/ds.ts')).toEqual([
      'src/migrate.ts',
    ]);
    // The table definitions a schema tool reads to write migrations are not run; a run file beside a `--schema` name still is.
    expect(scriptFileArguments('npx drizzle-kit generate:pg --schema src/store/tables.ts')).toEqual([]);
    expect(scriptFileArguments('drizzle-kit push --schema ./src/store/tables.ts')).toEqual([]);
    expect(scriptFileArguments('tsx src/store/apply.ts --schema ledger')).toEqual(['src/store/apply.ts']);
  });

  test('a file a migrate script runs is an entrypoint, also from its build output; other scripts are not', () => {
    writeFileSync(
      join(root, 'package.json'),
      JSON.stringify({
        scripts: { 'db:migrate': 'tsx src/db/apply-schema.ts', 'migrate:prod': 'node dist/tools/schema.js', start: 'node dist/main.js' },
      }),
    );
    mkdirSync(join(root, 'src', 'db'), { recursive: true });
    expect(isRunByMigrateScript(join(root, 'src', 'db', 'apply-schema.ts'))).toBe(true);
    expect(isRunByMigrateScript(join(root, 'src', 'tools', 'schema.ts'))).toBe(true);
    expect(isRunByMigrateScript(join(root, 'src', 'main.ts'))).toBe(false);
    expect(isRunByMigrateScript(join(root, 'src', 'db', 'other.ts'))).toBe(false);
    expect(isRunByMigrateScript('<input>')).toBe(false);
  });

  test('a file only scripts for writing or undoing migrations run is an authoring tool', () => {
    const dir = mkdtempSync(join(tmpdir(), 'replica-guard-authoring-'));
    try {
      writeFileSync(
        join(dir, 'package.json'),
        JSON.stringify({
          scripts: {
            'migration:generate': 'tsx scripts/new-migration.ts',
            'migrate:dev': 'tsx scripts/dev-schema.ts',
            'db:migrate': 'tsx scripts/deploy-schema.ts',
            'db:migrate:reset': 'tsx scripts/deploy-schema.ts --reset',
          },
        }),
      );
      expect(isRunOnlyByAuthoringScripts(join(dir, 'scripts', 'new-migration.ts'))).toBe(true);
      expect(isRunOnlyByAuthoringScripts(join(dir, 'scripts', 'dev-schema.ts'))).toBe(true);
      // also run by the deploy script: the deploy step
      expect(isRunOnlyByAuthoringScripts(join(dir, 'scripts', 'deploy-schema.ts'))).toBe(false);
      expect(isRunByMigrateScript(join(dir, 'scripts', 'new-migration.ts'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a file only the test tooling runs: test, pretest, e2e and cypress scripts, unless another script runs that script', () => {
    const dir = mkdtempSync(join(tmpdir(), 'replica-guard-test-scripts-'));
    try {
      writeFileSync(
        join(dir, 'package.json'),
        JSON.stringify({
          scripts: {
            start: 'node dist/server.js',
            'cypress:prepare': 'ts-node scripts/prepare-db.ts',
            pretest: 'tsx scripts/reset.ts',
            'e2e-seed': 'tsx scripts/seed.ts',
            seed: 'tsx scripts/seed.ts',
            'test:warm': 'tsx scripts/warm.ts',
            boot: 'npm run test:warm && node dist/server.js',
            latest: 'tsx scripts/latest.ts',
          },
        }),
      );
      expect(isRunOnlyByTestScripts(join(dir, 'scripts', 'prepare-db.ts'))).toBe(true);
      expect(isRunOnlyByTestScripts(join(dir, 'scripts', 'reset.ts'))).toBe(true);
      // also run by a script that is not a test's
      expect(isRunOnlyByTestScripts(join(dir, 'scripts', 'seed.ts'))).toBe(false);
      // a test script another script runs by name
      expect(isRunOnlyByTestScripts(join(dir, 'scripts', 'warm.ts'))).toBe(false);
      // a word that only holds "test"
      expect(isRunOnlyByTestScripts(join(dir, 'scripts', 'latest.ts'))).toBe(false);
      // run by no script at all
      expect(isRunOnlyByTestScripts(join(dir, 'src', 'server.ts'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the data source a migrator's command is given is not an entrypoint", () => {
    const dir = mkdtempSync(join(tmpdir(), 'replica-guard-datasource-'));
    try {
      writeFileSync(
        join(dir, 'package.json'),
        JSON.stringify({ scripts: { 'migration:run': 'typeorm-ts-node-commonjs migration:run -d src/data-source.ts' } }),
      );
      expect(isRunByMigrateScript(join(dir, 'src', 'data-source.ts'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a changed package.json is read again once a second has passed, not on every file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'replica-guard-changed-'));
    const file = join(dir, 'tools', 'up.ts');
    const now = vi.spyOn(Date, 'now').mockReturnValue(1_000_000);
    try {
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { start: 'node tools/up.js' } }));
      expect(isRunByMigrateScript(file)).toBe(false);
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { migrate: 'tsx tools/up.ts' } }));
      utimesSync(join(dir, 'package.json'), new Date(), new Date(Date.UTC(2030, 0, 1)));
      now.mockReturnValue(1_000_500);
      expect(isRunByMigrateScript(file)).toBe(false);
      now.mockReturnValue(1_001_500);
      expect(isRunByMigrateScript(file)).toBe(true);
    } finally {
      now.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('files of one directory share its package.json lookup: a sibling folder is not taken for it, and a change still counts', () => {
    const dir = mkdtempSync(join(tmpdir(), 'replica-guard-siblings-'));
    const now = vi.spyOn(Date, 'now').mockReturnValue(2_000_000);
    try {
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { migrate: 'tsx src2/up.ts' } }));
      expect(isRunByMigrateScript(join(dir, 'src', 'main.ts'))).toBe(false);
      // `src2` begins with `src`: the directory asked about last is compared whole.
      expect(isRunByMigrateScript(join(dir, 'src2', 'up.ts'))).toBe(true);
      expect(isRunByMigrateScript(join(dir, 'src', 'up.ts'))).toBe(false);
      expect(isRunByMigrateScript(join(dir, 'src', 'nested', 'up.ts'))).toBe(false);
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { migrate: 'tsx src/up.ts' } }));
      utimesSync(join(dir, 'package.json'), new Date(), new Date(Date.UTC(2031, 0, 1)));
      now.mockReturnValue(2_001_500);
      // The same directory as the file before: its package.json is still looked at again.
      expect(isRunByMigrateScript(join(dir, 'src', 'nested', 'up.ts'))).toBe(false);
      expect(isRunByMigrateScript(join(dir, 'src', 'up.ts'))).toBe(true);
      expect(isRunByMigrateScript(join(dir, 'src', 'other.ts'))).toBe(false);
    } finally {
      now.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('migrate-entrypoint re-reads a package.json changed between two lints in one process', () => {
    const dir = mkdtempSync(join(tmpdir(), 'replica-guard-relint-'));
    const file = join(dir, 'tools', 'apply.ts');
    const code = "import { Client } from 'pg';\nawait new Client(process.env.POSTGRES_MIGRATE_URL).connect();";
    const linter = new Linter({ configType: 'flat', cwd: dir });
    const lint = () =>
      linter
        .verify(
          code,
          {
            files: ['**/*.ts'],
            plugins: { rg: { rules: { 'migrate-entrypoint': migrateEntrypoint as never } } },
            rules: { 'rg/migrate-entrypoint': 'error' },
          },
          file,
        )
        .map((m) => `${m.messageId}:${m.line}:${m.column}`);
    const now = vi.spyOn(Date, 'now').mockReturnValue(3_000_000);
    try {
      mkdirSync(join(dir, 'tools'));
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { start: 'node tools/serve.js' } }));
      expect(lint()).toEqual([]);
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { 'db:migrate': 'tsx tools/apply.ts' } }));
      utimesSync(join(dir, 'package.json'), new Date(), new Date(Date.UTC(2032, 0, 1)));
      now.mockReturnValue(3_001_500);
      expect(lint()).toEqual(['noLock:1:1']);
    } finally {
      now.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a broken package.json means no such files', () => {
    const broken = mkdtempSync(join(tmpdir(), 'replica-guard-broken-'));
    writeFileSync(join(broken, 'package.json'), '{ "scripts": ');
    expect(isRunByMigrateScript(join(broken, 'migrate-now.ts'))).toBe(false);
    rmSync(broken, { recursive: true, force: true });
  });
});
