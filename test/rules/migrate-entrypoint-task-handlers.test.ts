// A migrate entrypoint that is a function-as-a-service handler never reading its event (and calls
// it when run directly, for a local run): the migration function a deploy invokes once. No pods start it together, so no lock is asked for;
// a handler that reads its event serves each invocation and is asked for one.
import { ruleTester } from './rule-tester.js';
import { migrateEntrypoint, type MigrateEntrypointMessageIds } from '../../rules/migrate-entrypoint.js';

const lines = (...l: string[]) => l.join('\n');
const rule = migrateEntrypoint as unknown as Parameters<typeof ruleTester.run<MigrateEntrypointMessageIds, readonly unknown[]>>[1];
const noLockAt = (line: number, column: number) => ({ messageId: 'noLock' as const, line, column });

// The module also calls its handler when run directly (a local run of the function).
const HANDLER = (head: string, body: string, start = 'handler();') =>
  lines(
    "import { MigrationExecutor } from 'typeorm';",
    "import dataSource from './data-source';",
    head,
    '  await dataSource.initialize();',
    body,
    '  await new MigrationExecutor(dataSource).executePendingMigrations();',
    "  return 'done';",
    head.startsWith('export async function') ? '}' : '};',
    start,
  );

ruleTester.run('migrate-entrypoint (task handlers)', rule, {
  valid: [
    { code: HANDLER('export const handler = async (_event?: unknown) => {', ''), filename: 'src/database/migrate.ts' },
    { code: HANDLER('export async function handler() {', ''), filename: 'src/database/migrate.ts' },
  ],
  invalid: [
    // the handler reads its event: it serves each invocation
    {
      code: HANDLER('export const handler = async (event: { tenant: string }) => {', '  console.log(event.tenant);'),
      filename: 'src/database/migrate.ts',
      errors: [noLockAt(6, 9)],
    },
    // a function of the module, not its exported handler
    {
      code: HANDLER('const apply = async (_event?: unknown) => {', '', 'apply();'),
      filename: 'src/database/migrate.ts',
      errors: [noLockAt(6, 9)],
    },
  ],
});
