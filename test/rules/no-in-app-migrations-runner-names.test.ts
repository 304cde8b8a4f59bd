// A project's runner called by a name that says it runs migrations of a kind or for a place
// (`runTenantMigrations()`, `runMigrationsOnTenant(…)`), imported from a module the rule may not
// be able to read: the name alone is the evidence, as for `runMigrations()`. One migration's run
// (`runTenantMigration`, `runMigrationFile`) or a check of them is not.
import { ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];

const start = (imported: string, call: string) =>
  lines(
    "import express from 'express';",
    `import { ${imported} } from './database/tenants';`,
    'async function main() {',
    `  await ${call};`,
    '  express().listen(3000);',
    '}',
    'void main();',
  );

ruleTester.run('no-in-app-migrations (runner names of a kind or a place)', rule, {
  valid: [
    start('runTenantMigration', "runTenantMigration('acme')"),
    start('runMigrationFile', "runMigrationFile('001_init.sql')"),
    start('runMigrationCheck', 'runMigrationCheck()'),
    start('runMigrationsTests', 'runMigrationsTests()'),
  ],
  invalid: [
    {
      code: start('runMultitenantMigrations', 'runMultitenantMigrations()'),
      errors: [{ messageId: 'schemaWriteCall', line: 4, column: 9 }],
    },
    { code: start('runTenantMigrations', 'runTenantMigrations()'), errors: [{ messageId: 'schemaWriteCall', line: 4, column: 9 }] },
    {
      code: start('runMigrationsOnTenant', "runMigrationsOnTenant({ databaseUrl: process.env.DATABASE_URL, upTo: 'latest' })"),
      errors: [{ messageId: 'schemaWriteCall', line: 4, column: 9 }],
    },
    {
      code: start('applyMigrationsForAllTenants', 'applyMigrationsForAllTenants()'),
      errors: [{ messageId: 'schemaWriteCall', line: 4, column: 9 }],
    },
  ],
});
