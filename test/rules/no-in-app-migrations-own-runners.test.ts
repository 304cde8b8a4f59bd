// The project's own classes around migrations: a method named like a migrator's on a class of the
// project is judged by its body (a key-value store's data move is no schema write; a body that runs
// TypeORM's migrator is one); a migration runner class that runs itself from a NestJS start hook,
// and a runner service called by its name, migrate on every replica's boot.
import { ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const call = (line: number, column: number) => ({ messageId: 'schemaWriteCall' as const, line, column });

/** A document store's own `runMigrations`: counters in a settings record are rewritten, no schema. */
const KEY_VALUE_STORE = lines(
  'class FileBackedStore {',
  '  constructor(private readonly settings: Map<string, number>) {}',
  '  async runMigrations() {',
  "    const legacy = this.settings.get('counter');",
  '    if (legacy === undefined) return;',
  "    this.settings.set('counter:default', legacy);",
  "    this.settings.delete('counter');",
  '  }',
  '}',
);

/** A runner class of the project: its `run` loads migration files and applies them in a loop no catalogue names. */
const RUNNER_CLASS = (name: string, hook: string) =>
  lines(
    "import { Injectable } from '@nestjs/common';",
    "import { loadSteps } from './steps';",
    '@Injectable()',
    `export class ${name} {`,
    '  constructor(private readonly queryRunner: { query(sql: string): Promise<unknown> }) {}',
    hook,
    "  async run({ action }: { action: 'up' | 'down' }) {",
    '    for (const step of await loadSteps()) await step[action](this.queryRunner);',
    '  }',
    '  async pending() {',
    '    return (await loadSteps()).length;',
    '  }',
    '}',
  );

ruleTester.run('no-in-app-migrations (the project’s own runner classes)', rule, {
  valid: [
    // `runMigrations()` on an instance of that class
    lines(
      KEY_VALUE_STORE,
      'export async function start(settings: Map<string, number>) {',
      '  const store = new FileBackedStore(settings);',
      '  await store.runMigrations();',
      '  return store;',
      '}',
    ),
    // the runner class's start hook only counts what is pending
    RUNNER_CLASS('MigrationService', '  async onApplicationBootstrap() { this.pendingCount = await this.pending(); }'),
    // its run is called from an operator's command method, not a start hook
    RUNNER_CLASS('MigrationService', "  async handleCommand() { await this.run({ action: 'up' }); }"),
    // a class not named for migrations running its own `run` at start (a warm-up, a job)
    RUNNER_CLASS('CacheWarmer', "  async onModuleInit() { await this.run({ action: 'up' }); }"),
  ],
  invalid: [
    // the same call on a TypeORM data source
    {
      code: lines(
        "import { DataSource } from 'typeorm';",
        'export async function start(url: string) {',
        "  const store = new DataSource({ type: 'postgres', url });",
        '  await store.initialize();',
        '  await store.runMigrations();',
        '}',
      ),
      errors: [call(5, 9)],
    },
    // a class of the project whose method runs TypeORM's migrator: the call and the migrator call
    {
      code: lines(
        "import type { DataSource } from 'typeorm';",
        'class SchemaStore {',
        '  constructor(private readonly dataSource: DataSource) {}',
        '  async runMigrations() {',
        '    await this.dataSource.runMigrations();',
        '  }',
        '}',
        'export async function start(dataSource: DataSource) {',
        '  const store = new SchemaStore(dataSource);',
        '  await store.runMigrations();',
        '}',
      ),
      errors: [call(5, 11), call(10, 9)],
    },
    // a project method whose body cannot be shown to migrate something else (it holds a database session)
    {
      code: lines(
        'class TenantStore {',
        '  constructor(private readonly conn: { query(sql: string): Promise<unknown> }) {}',
        '  async runMigrations() {',
        '    for (const sql of PENDING) await this.conn.query(sql);',
        '  }',
        '}',
        'const PENDING: string[] = [];',
        'export async function start(conn: { query(sql: string): Promise<unknown> }) {',
        '  await new TenantStore(conn).runMigrations();',
        '}',
      ),
      errors: [call(9, 9)],
    },
    // the runner class runs itself from its start hook, on every replica's boot
    {
      code: RUNNER_CLASS(
        'MigrationService',
        "  async onApplicationBootstrap() { if (process.env.AUTO_MIGRATE) await this.run({ action: 'up' }); }",
      ),
      errors: [call(6, 72)],
    },
    {
      code: RUNNER_CLASS('SchemaMigrator', "  async onModuleInit() { await this.run({ action: 'up' }); }"),
      errors: [call(6, 32)],
    },
    // a runner service called by its name from another provider's start hook
    {
      code: lines(
        "import { Injectable, OnApplicationBootstrap } from '@nestjs/common';",
        "import { MigrationRunnerService } from './migration-runner.service';",
        '@Injectable()',
        'export class AppService implements OnApplicationBootstrap {',
        '  constructor(private readonly migrationRunner: MigrationRunnerService) {}',
        '  async onApplicationBootstrap() {',
        '    await this.migrationRunner.run();',
        '  }',
        '}',
      ),
      errors: [call(7, 11)],
    },
  ],
});
