// A folder named for migrations holds migration files, whose schema writes are expected; a
// framework's service or module in it (`migration/migration.service.ts`) is the application's own
// runner, judged as code anywhere else: run from its start hook, it migrates on every replica's
// boot. A `migrationFiles` setting that names the folder keeps it all exempt.
import { ruleTester } from '../rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../../rules/no-in-app-migrations.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const SERVICE = lines(
  "import { Injectable, OnApplicationBootstrap } from '@nestjs/common';",
  "import { loadSteps } from './steps';",
  '@Injectable()',
  'export class MigrationService implements OnApplicationBootstrap {',
  '  constructor(private readonly queryRunner: { query(sql: string): Promise<unknown> }) {}',
  "  async onApplicationBootstrap() { await this.run({ action: 'up' }); }",
  "  async run({ action }: { action: 'up' | 'down' }) {",
  '    for (const step of await loadSteps()) await step[action](this.queryRunner);',
  '  }',
  '}',
);
const STEP = lines(
  "import { Sequelize } from 'sequelize';",
  'export async function up(sequelize: Sequelize) {',
  '  await sequelize.sync({ alter: true });',
  '}',
);

ruleTester.run('no-in-app-migrations: runners in a migrations folder', rule, {
  valid: [
    { code: STEP, filename: '/srv/app/src/migration/1700000000-sync.ts' },
    { code: STEP, filename: '/srv/app/src/migrations/step.fixes.ts' },
    // the setting wins: a folder the user names is all migration files
    {
      code: SERVICE,
      filename: '/srv/app/src/migration/migration.service.ts',
      settings: { 'replica-guard': { migrationFiles: ['**/migration/**'] } },
    },
  ],
  invalid: [
    {
      code: SERVICE,
      filename: '/srv/app/src/migration/migration.service.ts',
      errors: [{ messageId: 'schemaWriteCall', line: 6, column: 42 }],
    },
    {
      code: SERVICE,
      filename: '/srv/app/src/migrations/migrations.module.ts',
      errors: [{ messageId: 'schemaWriteCall', line: 6, column: 42 }],
    },
  ],
});
