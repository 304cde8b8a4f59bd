// Migrate scripts named for migrations whose run is not their own statements' exit: a script that
// builds the NestJS application for one step and closes it, and a script that only calls a runner
// another module defines (runner-call-scripts.ts); and where a hand-written runner with no lock is
// reported — on the loop's step that applies each migration file (looped-file-runs.ts).
import { ruleTester } from './rule-tester.js';
import { migrateEntrypoint, type MigrateEntrypointMessageIds } from '../../rules/migrate-entrypoint.js';

const lines = (...l: string[]) => l.join('\n');
const rule = migrateEntrypoint as unknown as Parameters<typeof ruleTester.run<MigrateEntrypointMessageIds, readonly unknown[]>>[1];
const noLockAt = (line: number, column: number) => ({ messageId: 'noLock' as const, line, column });

/** A NestJS application built to run the TypeORM migrations once; `tail` after the run. */
const nestStep = (tail: string) =>
  lines(
    "import { NestFactory } from '@nestjs/core';",
    "import { DataSource } from 'typeorm';",
    "import { ServiceModule } from './service.module';",
    'async function upgradeSchema() {',
    '  const service = await NestFactory.create(ServiceModule);',
    '  await service.get(DataSource).runMigrations();',
    `  ${tail}`,
    '}',
    'upgradeSchema();',
  );

/** Loads, then the call of a runner `name` imported from another module. */
const runnerCall = (name: string, extra = '') =>
  lines(`import { ${name} } from './store/runner';`, "import { settings } from './settings';", `${name}(settings.storeUrl);`, extra);

/** A hand-written runner: a loop over the files `list` names, each sent with `step`. */
const fileLoop = (list: string, step: string) =>
  lines(
    "import db from './store/client';",
    "import { readdirSync } from 'node:fs';",
    "import { join } from 'node:path';",
    "const folder = join(__dirname, 'schema');",
    'async function main() {',
    '  await db`create table if not exists applied_steps (name text primary key)`;',
    `  const ${list} = readdirSync(folder).sort();`,
    `  for (const name of ${list}) {`,
    `    ${step}`,
    '    await db`insert into applied_steps ${db({ name })}`;',
    '  }',
    '  await db.end();',
    '  process.exit(0);',
    '}',
    'main().catch(() => process.exit(1));',
  );

ruleTester.run('migrate-entrypoint (runner scripts)', rule, {
  valid: [
    // the application is served as well: the server's start (no-in-app-migrations' case), not a script
    { code: nestStep('await service.listen(8080);'), filename: 'src/migration.ts' },
    // the runner's call beside another statement that starts something: a module of the server
    { code: runnerCall('applyPendingMigrations', 'startReporting();'), filename: 'src/db/run-migration.ts' },
    // exports a value: a module others load, not a script
    { code: runnerCall('applyPendingMigrations', 'export const ready = true;'), filename: 'src/db/run-migration.ts' },
    // a call not named for a migration runner
    { code: runnerCall('refreshReports'), filename: 'src/db/run-migration.ts' },
  ],
  invalid: [
    { code: nestStep('await service.close();'), filename: 'src/migration.ts', errors: [noLockAt(6, 9)] },
    { code: runnerCall('applyPendingMigrations'), filename: 'src/db/run-migration.ts', errors: [noLockAt(3, 1)] },
    {
      code: lines("const { runSchemaMigrations } = require('./store/runner');", 'runSchemaMigrations().catch(() => process.exit(1));'),
      filename: 'scripts/apply-migrations.js',
      errors: [noLockAt(2, 1)],
    },
    // the loop's step applies each migration file: reported there, not on the first line
    { code: fileLoop('queuedMigrations', 'await db.file(join(folder, name));'), filename: 'src/migrate.ts', errors: [noLockAt(9, 11)] },
    {
      code: fileLoop('queuedMigrations', "await db.unsafe(readFileSync(join(folder, name), 'utf8'));"),
      filename: 'src/migrate.ts',
      errors: [noLockAt(9, 11)],
    },
    // a loop over files not named for migrations: no step is the run's, the first line is reported
    { code: fileLoop('queuedFiles', 'await db.file(join(folder, name));'), filename: 'src/migrate.ts', errors: [noLockAt(1, 1)] },
  ],
});
