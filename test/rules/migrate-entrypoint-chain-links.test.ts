// migrate-entrypoint's swallowed failures through a promise chain: a run started in a `.then(…)`
// link whose handler hands its promise on (an expression body, a `return`, an `async` handler) fails
// the links after it, so a `.catch(…)` further down that only logs swallows the run's failure. A
// handler that starts the run without handing it on leaves that rejection to nobody (Node exits
// non-zero), and a `.catch(…)` that exits non-zero is a handled failure.
import { ruleTester } from './rule-tester.js';
import { migrateEntrypoint, type MigrateEntrypointMessageIds } from '../../rules/migrate-entrypoint.js';

const lines = (...l: string[]) => l.join('\n');
const rule = migrateEntrypoint as unknown as Parameters<typeof ruleTester.run<MigrateEntrypointMessageIds, readonly unknown[]>>[1];
const ENTRY = 'jobs/layout-tables.mjs';
const settings = { 'replica-guard': { migrateEntrypoints: [ENTRY] } };
const noLockAt = (line: number, column: number) => ({ messageId: 'noLock' as const, line, column });
const swallowedAt = (line: number, column: number) => ({ messageId: 'swallowedFailure' as const, line, column });

/** knex (which locks its own runs): a check of the connection, then `step` and a logging link, and `handler` at the chain's end. */
const chain = (step: string, handler = '(problem) => console.warn(problem)') =>
  lines(
    "import knex from 'knex';",
    "import shelfConfig from './shelf-config.mjs';",
    'const shelf = knex(shelfConfig);',
    'shelf',
    "  .raw('select 1')",
    `  .then(${step})`,
    "  .then(() => console.info('tables laid out'))",
    `  .catch(${handler});`,
  );

ruleTester.run('migrate-entrypoint (a run in a link of a chain)', rule, {
  valid: [
    // the run's failure ends the process: the last handler exits non-zero
    {
      code: chain('() => shelf.migrate.latest()', '(problem) => { console.warn(problem); process.exit(1); }'),
      filename: ENTRY,
      settings,
    },
    // the handler starts the run without handing its promise on: the rejection is nobody's, the catch is the connection check's
    { code: chain('() => { shelf.migrate.latest(); }'), filename: ENTRY, settings },
    // `.then(ok, fail)`: `fail` handles the connection check, not the run `ok` starts
    {
      code: lines(
        "import knex from 'knex';",
        "import shelfConfig from './shelf-config.mjs';",
        'const shelf = knex(shelfConfig);',
        "shelf.raw('select 1').then(() => shelf.migrate.latest(), (problem) => console.warn(problem));",
      ),
      filename: ENTRY,
      settings,
    },
  ],
  invalid: [
    // an expression body hands the run on
    { code: chain('() => shelf.migrate.latest()'), filename: ENTRY, settings, errors: [swallowedAt(8, 10)] },
    // a block that returns the run
    { code: chain('function () { return shelf.migrate.latest(); }'), filename: ENTRY, settings, errors: [swallowedAt(8, 10)] },
    // an async handler of this file that awaits the run; Sequelize holds no lock of its own
    {
      code: lines(
        "import { Sequelize } from 'sequelize';",
        "import { archiveOptions } from './archive-options.mjs';",
        'const archive = new Sequelize(archiveOptions);',
        'async function layOut() {',
        '  await archive.sync({ alter: true });',
        '}',
        "archive.authenticate().then(layOut).catch((problem) => console.warn('layout failed', problem));",
      ),
      filename: ENTRY,
      settings,
      errors: [noLockAt(5, 9), swallowedAt(7, 43)],
    },
  ],
});
