import { ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

// A Fastify plugin that sends `CREATE TABLE IF NOT EXISTS …` through the project's own client on a
// decoration of the instance (`app.warehouse.query(sql)`, a wrapper's `app.warehouse.insert(sql)`)
// as it loads: every replica registers its plugins at start, so each one writes the schema then.
// The same statement in a route handler or a helper the plugin defines runs when that is called.
const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const call = (line: number, column: number) => ({ messageId: 'schemaWriteCall' as const, line, column });

const DDL = 'const parcelsTable = `CREATE TABLE IF NOT EXISTS parcels (id bigint PRIMARY KEY, weight float NOT NULL)`;';

/** A plugin wrapped by fastify-plugin whose body is `body`. */
const wrapped = (...body: string[]) =>
  lines(
    "import type { FastifyPluginAsync } from 'fastify';",
    "import fp from 'fastify-plugin';",
    'export default fp<FastifyPluginAsync>(async function (app, options) {',
    ...body.map((statement) => `  ${statement}`),
    '});',
  );

ruleTester.run('no-in-app-migrations (DDL a Fastify plugin sends as it loads)', rule, {
  valid: [
    // in a route handler: sent when the request comes
    wrapped(DDL, "app.post('/admin/parcels-table', async () => {", '  await app.warehouse.query(parcelsTable);', '});'),
    // in a helper the plugin defines and decorates
    wrapped(
      DDL,
      'async function ensureParcels() {',
      '  await app.warehouse.query(parcelsTable);',
      '}',
      "app.decorate('ensureParcels', ensureParcels);",
    ),
    // not DDL
    wrapped('await app.warehouse.query(`SELECT count(*) FROM parcels`);'),
    // logged, not sent
    wrapped(DDL, 'app.log.info(parcelsTable);'),
    // a SQLite decoration: each host's own file
    wrapped(DDL, 'app.sqlite.exec(parcelsTable);'),
    // not a Fastify module
    lines(DDL, 'export default async function (hub) {', '  await hub.warehouse.query(parcelsTable);', '}'),
  ],
  invalid: [
    { code: wrapped(DDL, 'await app.warehouse.query(parcelsTable);'), errors: [call(5, 9)] },
    // the project's own wrapper, whatever its method is called
    { code: wrapped(DDL, 'await app.warehouse.insert(parcelsTable);'), errors: [call(5, 9)] },
    // an autoloaded plugin: the module's default export
    {
      code: lines(
        "import type { FastifyInstance } from 'fastify';",
        'export default async function parcels(server: FastifyInstance) {',
        "  if (server.hasDecorator('pg')) await server.pg.query('CREATE TABLE IF NOT EXISTS parcels (id serial PRIMARY KEY)');",
        '}',
      ),
      errors: [call(3, 40)],
    },
    // CommonJS, the wrapper required
    {
      code: lines(
        "const fp = require('fastify-plugin');",
        'module.exports = fp(async (server) => {',
        "  server.warehouse.run('ALTER TABLE parcels ADD COLUMN IF NOT EXISTS label text').catch(() => {});",
        '});',
      ),
      errors: [call(3, 3)],
    },
  ],
});
