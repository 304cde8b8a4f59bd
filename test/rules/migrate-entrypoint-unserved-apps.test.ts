// A script named for migrations that builds the NestJS application for one step and serves nothing,
// leaving the end to the runtime (no `close()`, no `process.exit`): the service's migrate script under
// another name, so the entrypoint's checks apply (here: no lock). The same file that listens is a server.
import { ruleTester } from './rule-tester.js';
import { migrateEntrypoint, type MigrateEntrypointMessageIds } from '../../rules/migrate-entrypoint.js';

const lines = (...l: string[]) => l.join('\n');
const rule = migrateEntrypoint as unknown as Parameters<typeof ruleTester.run<MigrateEntrypointMessageIds, readonly unknown[]>>[1];

/** A script building the application, running the ledger's pending steps through `step`; `extra` is the function's last statement. */
const script = (extra = '', step = 'applyPending') =>
  lines(
    "import { NestFactory } from '@nestjs/core';",
    "import { LedgerModule } from './ledger.module';",
    "import { LedgerMigrator } from './migration/ledger-migrator';",
    'async function start() {',
    '  const ledger = await NestFactory.createApplicationContext(LedgerModule);',
    `  await ledger.get(LedgerMigrator).${step}();`,
    `  ${extra}`,
    '}',
    'void start();',
  );

ruleTester.run('migrate-entrypoint (scripts that build the application and serve nothing)', rule, {
  valid: [
    // it listens: a server that migrates as it starts (no-in-app-migrations' case)
    { code: script('await ledger.listen(8080);'), filename: 'src/ledger-migration.ts' },
    // not named for migrations: any script
    { code: script('', 'doMigrations'), filename: 'src/ledger-report.ts' },
    { code: script(), filename: 'src/ledger-report.ts' },
  ],
  invalid: [
    // no run call in view: on the file's first token
    { code: script(), filename: 'src/ledger-migration.ts', errors: [{ messageId: 'noLock', line: 1, column: 1 }] },
    // on the call that runs the migrations
    { code: script('', 'runMigrationsUp'), filename: 'src/ledger-migration.ts', errors: [{ messageId: 'noLock', line: 6, column: 9 }] },
    // a run named with the verb `do`
    { code: script('', 'doMigrations'), filename: 'src/ledger-migration.ts', errors: [{ messageId: 'noLock', line: 6, column: 9 }] },
  ],
});
