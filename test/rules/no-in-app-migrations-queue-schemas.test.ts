import { ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

// A job queue that keeps its own schema in the shared database (graphile-worker's `graphile_worker`):
// its utilities' `migrate()` (its `runMigrations()` is a runner by its name) called as the server
// starts installs or updates that schema from every replica at once.
const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const call = (line: number, column: number) => ({ messageId: 'schemaWriteCall' as const, line, column });

ruleTester.run('no-in-app-migrations (a job queue schema migrated at start)', rule, {
  valid: [
    // the utilities used to queue jobs only: the schema is installed elsewhere
    lines(
      "import { makeWorkerUtils } from 'graphile-worker';",
      'export async function queueDigest(to: string) {',
      '  const tools = await makeWorkerUtils({ connectionString: process.env.QUEUE_URL });',
      "  await tools.addJob('digest', { to });",
      '  await tools.release();',
      '}',
    ),
    // a migrate entrypoint installs it
    {
      code: lines("import { runMigrations } from 'graphile-worker';", 'await runMigrations({ connectionString: process.env.QUEUE_URL });'),
      filename: 'src/cmd/migrate.ts',
    },
  ],
  invalid: [
    {
      code: lines(
        "import { makeWorkerUtils } from 'graphile-worker';",
        'export async function startMailQueue() {',
        '  const tools = await makeWorkerUtils({ connectionString: process.env.QUEUE_URL });',
        '  await tools.migrate();',
        '  return tools;',
        '}',
      ),
      errors: [call(4, 9)],
    },
    {
      code: lines(
        "import { runMigrations } from 'graphile-worker';",
        'export async function bootQueue() {',
        '  await runMigrations({ connectionString: process.env.QUEUE_URL });',
        '}',
      ),
      errors: [call(3, 9)],
    },
  ],
});
