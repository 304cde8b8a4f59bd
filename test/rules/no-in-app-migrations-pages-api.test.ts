// A Next.js pages-router API route (`pages/api/admin/migrate.ts`) answers the requests of its path
// with its default export: a migration run there runs once per request, on the replica that took
// it, like a route registered with `app.post('/admin/migrate', …)`. The same run in a module
// outside `pages/api/`, at the route module's top level, or in a middleware handed to `use`
// (every request, every replica) stays reported. One notion of a request handler serves the
// migrator calls and the project's own runners (analysis/request-handler-around.ts).
import { ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const call = (line: number, column: number) => ({ messageId: 'schemaWriteCall' as const, line, column });
const HEAD = lines("import knex from 'knex';", "const store = knex({ client: 'pg', connection: process.env.DATABASE_URL });");
const HANDLER = lines(
  'export default async function handler(_req: NextApiRequest, res: NextApiResponse) {',
  '  await store.migrate.latest();',
  '  res.status(200).json({ ok: true });',
  '}',
);

ruleTester.run('no-in-app-migrations (pages-router API routes)', rule, {
  valid: [
    // The route's default export, its request parameter not named `req`.
    { filename: 'pages/api/admin/migrate.ts', code: lines(HEAD, HANDLER) },
    // An arrow default export under `src/pages/api/`.
    {
      filename: 'src/pages/api/migrate.ts',
      code: lines(HEAD, 'export default async (_request, res) => {', '  await store.migrate.latest();', '  res.end();', '};'),
    },
    // A handler named by a wrapped default export.
    {
      filename: 'pages/api/setup.ts',
      code: lines(
        HEAD,
        'async function handler(_req, res) {',
        '  await store.migrate.latest();',
        '  res.end();',
        '}',
        'export default withAdminSession(handler);',
      ),
    },
    // A handler known by its `(req, res)` parameters, its route registered in another module.
    {
      filename: 'src/controllers/admin.ts',
      code: lines(HEAD, 'export async function migrateNow(req, res) {', '  await store.migrate.latest();', '  res.end();', '}'),
    },
    // The project's own runner given what the request names, in the route's default export.
    {
      filename: 'pages/api/tenants/[id].ts',
      code: lines(
        "import { db } from '../../../lib/db';",
        "import { runTenantMigrations } from '../../../lib/tenants';",
        'export default async function handler(_req, res) {',
        '  await runTenantMigrations(_req.query.id);',
        '  res.end();',
        '}',
      ),
    },
  ],
  invalid: [
    // The same default export outside `pages/api/`: no framework routes requests to it.
    { filename: 'lib/db/setup.ts', code: lines(HEAD, HANDLER), errors: [call(4, 9)] },
    // At the route module's top level: each replica runs it when it loads the module.
    {
      filename: 'pages/api/users.ts',
      code: lines(HEAD, 'await store.migrate.latest();', 'export default async function handler(_req, res) {', '  res.end();', '}'),
      errors: [call(3, 7)],
    },
    // A named export of the route module, not its default: no request is known to reach it.
    {
      filename: 'pages/api/users.ts',
      code: lines(HEAD, 'export async function prepare() {', '  await store.migrate.latest();', '}', 'export default withSession(list);'),
      errors: [call(4, 9)],
    },
    // An async IIFE as the default export runs as the module loads, not for a request.
    {
      filename: 'pages/api/boot.ts',
      code: lines(HEAD, 'export default (async () => {', '  await store.migrate.latest();', '})();'),
      errors: [call(4, 9)],
    },
    // A middleware handed to `use`: every request, on every replica.
    {
      filename: 'src/server.ts',
      code: lines(
        HEAD,
        "import express from 'express';",
        'const app = express();',
        'app.use(async (req, res, next) => {',
        '  await store.migrate.latest();',
        '  next();',
        '});',
      ),
      errors: [call(6, 9)],
    },
  ],
});
