// Round thirty-two's shapes, each judged from the file alone:
// - start-up steps named for laying out the schema (`await ensureInvoiceColumns()`,
//   `await createReportTables(pool)`), imported from a project module the rule cannot read, in a
//   file that talks to a database: every replica sends their DDL as it starts;
// - layout DDL a request handler sends before its own work (`CREATE TABLE IF NOT EXISTS` then
//   `INSERT INTO …` in `app.post('/tickets', …)`): on every request of every replica;
// - a bare `sync()` on a client a project module out of view exports, its name capitalised as a
//   default import often is (`Database.sync()`);
// - a run named with the verb `do` (`dbClient.doMigrations()`), not `doMigrationReport()`;
// - not a replica's start: a script whose default-exported function it runs itself and which closes
//   its client when done (`export default async function rebuildSchema() { …; await ds.destroy(); } rebuildSchema();`).
import { ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const call = (line: number, column: number, api: string) => ({ messageId: 'schemaWriteCall' as const, line, column, data: { api } });

/** A start-up function calling `step` imported from './steps', beside the file's `database` import. */
const startup = (step: string, database = "import { openDatabase } from './store/database';") =>
  lines(
    database,
    "import { ensureInvoiceColumns, createReportTables, setupAuditTriggers, ensureCache } from './steps';",
    'async function boot() {',
    '  await openDatabase();',
    `  await ${step};`,
    '}',
    'boot();',
  );

/** A ticket route of a service whose client comes from `from`; `work` is the handler's own statement. */
const route = (sql: string, work = "'INSERT INTO tickets (title) VALUES ($1)'", from = './pg-client.js') =>
  lines(
    "import express from 'express';",
    `import { client } from '${from}';`,
    'const app = express();',
    "app.post('/tickets', async (req, res) => {",
    `  await client.query(${sql});`,
    `  const saved = await client.query(${work}, [req.body.title]);`,
    '  res.json(saved.rows[0]);',
    '});',
  );

/** A start syncing the default export of a project module the rule cannot read. */
const sync = (name: string) =>
  lines(`import ${name} from './store/database';`, '(async () => {', `  await ${name}.authenticate();`, `  await ${name}.sync();`, '})();');

/** A script syncing the schema in its default export, run at the bottom; `end` is the function's last statement. */
const script = (end: string) =>
  lines(
    "import { DataSource } from 'typeorm';",
    "import { ledgerOptions } from './ledger-options';",
    'export default async function rebuildSchema() {',
    '  const source = new DataSource({ ...ledgerOptions, synchronize: true });',
    '  await source.initialize();',
    `  ${end}`,
    '}',
    'rebuildSchema();',
  );

/** A start calling `method` on the project's database client. */
const clientRun = (method: string) => lines("import { dbClient } from './store/client';", `await dbClient.${method}();`, 'startServer();');

const TABLE = "'CREATE TABLE IF NOT EXISTS tickets (id serial PRIMARY KEY, title text)'";

ruleTester.run('no-in-app-migrations (layout steps at start, layout DDL per request)', rule, {
  valid: [
    // no database in view: a cache warm-up named for nothing of the schema
    { code: startup('ensureCache()'), filename: 'src/main.ts' },
    // no database in view: the columns of a spreadsheet export
    { code: startup('ensureInvoiceColumns()', "import { loadConfig } from './config';"), filename: 'src/main.ts' },
    // handed what it lays out: a report's table for one customer
    { code: startup('createReportTables(customer)'), filename: 'src/main.ts' },
    // a package's step, not the project's own
    {
      code: lines(
        "import { openDatabase } from './store/database';",
        "import { setupTables } from 'table-kit';",
        'await openDatabase();',
        'await setupTables();',
      ),
      filename: 'src/main.ts',
    },
    // a handler that only lays out the table: an operator's one-off endpoint
    { code: route(TABLE, "'CREATE INDEX IF NOT EXISTS tickets_title ON tickets (title)'"), filename: 'src/server.js' },
    // the client of a project module named for no database
    { code: route(TABLE, undefined, './helpers.js'), filename: 'src/server.js' },
    // an embedded file database: each host has its own
    { code: route(TABLE, undefined, './sqlite-db.js'), filename: 'src/server.js' },
    // a name that says nothing of a database
    { code: sync('Store'), filename: 'src/server.ts' },
    // the verb `do` before another word than the run: a report
    { code: clientRun('doMigrationReport'), filename: 'src/main.ts' },
    // a one-shot script: it closes its client when done
    { code: script('await source.destroy();'), filename: 'src/rebuild-schema.ts' },
  ],
  invalid: [
    // the verb `do` before the run
    { code: clientRun('doMigrations'), filename: 'src/main.ts', errors: [{ messageId: 'schemaWriteCall', line: 2, column: 7 }] },
    // and when it runs
    { code: clientRun('doMigrationsOnBoot'), filename: 'src/main.ts', errors: [{ messageId: 'schemaWriteCall', line: 2, column: 7 }] },
    // the same function left running: nothing says the process ends
    {
      code: script("console.log('ready');"),
      filename: 'src/rebuild-schema.ts',
      errors: [{ messageId: 'schemaWriteOption', line: 4, column: 53 }],
    },
    { code: sync('Database'), filename: 'src/server.ts', errors: [{ messageId: 'schemaWriteCall', line: 4, column: 9 }] },
    { code: startup('ensureInvoiceColumns()'), filename: 'src/main.ts', errors: [call(5, 9, '`ensureInvoiceColumns()`')] },
    { code: startup('createReportTables(pool)'), filename: 'src/main.ts', errors: [call(5, 9, '`createReportTables()`')] },
    { code: startup('setupAuditTriggers()'), filename: 'src/main.ts', errors: [call(5, 9, '`setupAuditTriggers()`')] },
    // the table laid out on every ticket, before the ticket's own insert
    { code: route(TABLE), filename: 'src/server.js', errors: [call(5, 9, '`client.query()`')] },
    // the same before a read, through a template
    {
      code: route(
        '`CREATE TABLE IF NOT EXISTS tickets (id serial PRIMARY KEY)`',
        "'SELECT * FROM tickets WHERE title = $1'",
        '../db/index.js',
      ),
      filename: 'src/server.js',
      errors: [call(5, 9, '`client.query()`')],
    },
  ],
});
