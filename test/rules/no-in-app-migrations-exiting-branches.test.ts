// A set-up script whose one run ends the process in every branch (`if (created) process.exit(0);
// else process.exit(1);` as the last step of its `try`) is a command, not the server. A run that
// exits only on failure or in one branch, a server's guard that exits on a missing setting, and a
// run behind a guard that only catches are still the app's start path. (A standalone NestJS
// application context run behind a main-module guard: projects-migrations-delegated-runs.)
import { ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const call = (line: number, column: number) => ({ messageId: 'schemaWriteCall' as const, line, column });
const HEAD = lines("import knex from 'knex';", "const store = knex({ client: 'pg', connection: process.env.DATABASE_URL });");

/** An async IIFE: migrate, then `tail` in its `try`; failures exit 1. */
const setup = (...tail: string[]) =>
  lines(
    HEAD,
    '(async () => {',
    '  try {',
    '    await store.migrate.latest();',
    "    const rows = await store('owners').insert({ name: 'root' });",
    ...tail.map((line) => `    ${line}`),
    '  } catch (error) {',
    '    console.error(error);',
    '    process.exit(1);',
    '  }',
    '})();',
  );

ruleTester.run('no-in-app-migrations (runs that exit in every branch)', rule, {
  valid: [
    setup('if (rows.length) {', '  process.exit(0);', '} else {', '  process.exit(1);', '}'),
    setup('if (rows.length) process.exit(0);', 'else process.exit(2);'),
    setup('process.exit(0);'),
  ],
  invalid: [
    // exits only on failure: a server that fails at start-up does the same
    { code: setup(), errors: [call(5, 11)] },
    // one branch only
    { code: setup('if (!rows.length) process.exit(1);'), errors: [call(5, 11)] },
    { code: setup('if (rows.length) {', '  process.exit(0);', '}'), errors: [call(5, 11)] },
    // a guard that exits on a missing setting, then the server's start
    {
      code: lines(
        HEAD,
        'if (!process.env.DATABASE_URL) {',
        '  process.exit(1);',
        '}',
        'async function start() {',
        '  await store.migrate.latest();',
        '}',
        'start();',
      ),
      errors: [call(7, 9)],
    },
    // the guarded run only catches
    {
      code: lines(
        HEAD,
        'export async function upgrade() {',
        '  await store.migrate.latest();',
        '}',
        'if (process.env.ROLE === "primary") {',
        '  upgrade().catch(() => process.exit(1));',
        '}',
      ),
      errors: [call(4, 9)],
    },
  ],
});
