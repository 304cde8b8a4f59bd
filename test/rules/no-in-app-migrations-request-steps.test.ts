// A migration step run for what one request names: `runDataMigrations(userId)` in the helper that
// the import routes call, `runTenantMigrations(req.body.tenantId)` in a signup route. It runs on the
// replica that took the request, not on every replica as it starts. A handler is known by its route
// (`app.post('/x', …)`) or by its parameters (`(req, res)` in a controllers module); a helper counts
// when every call of it in the file sits in one. A step given nothing or only a database handle
// in a middleware (`app.use((req, res, next) => runMigrations(db))`) stays reported: each instance
// runs the whole run for every request. The handler is the one the rule's other path knows
// (no-in-app-migrations-pages-api.test.ts).
import { ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const call = (line: number, column: number, api: string) => ({ messageId: 'schemaWriteCall' as const, line, column, data: { api } });

const IMPORTS = lines("import runDataMigrations from '../models/data-migrations';", "import { saveAll } from '../models';");
/** The helper the import routes share. */
const HELPER = lines(
  'export async function importData(userId: number, world: unknown) {',
  '  await saveAll(userId, world);',
  '  await runDataMigrations(userId);',
  '}',
);
const ROUTES = lines(
  'export async function importFile(req: Request, res: Response) {',
  '  await importData(req.user.id, req.body);',
  '  res.status(200).end();',
  '}',
  'export async function importOfx(request, reply) {',
  '  await importData(request.user.id, request.body);',
  '}',
);

ruleTester.run('no-in-app-migrations (steps run per request)', rule, {
  valid: [
    // Only the import handlers call the helper.
    lines(IMPORTS, HELPER, ROUTES),
    // In a route's handler, given what the request names.
    lines(
      "import express from 'express';",
      "import { runTenantMigrations } from './tenants/migrations';",
      'const app = express();',
      "app.post('/tenants', async (req, res) => {",
      '  await runTenantMigrations(req.body.tenantId);',
      '  res.sendStatus(201);',
      '});',
    ),
  ],
  invalid: [
    {
      // The start path calls the helper too.
      code: lines(IMPORTS, HELPER, ROUTES, 'export async function boot() {', '  await importData(0, {});', '}'),
      errors: [call(5, 9, '`runDataMigrations()`')],
    },
    {
      // No code of the file calls it: not known to serve requests.
      code: lines(IMPORTS, HELPER),
      errors: [call(5, 9, '`runDataMigrations()`')],
    },
    {
      // A middleware runs the whole run on a database handle for every request, on every instance.
      code: lines(
        "import express from 'express';",
        "import { runMigrations } from './db/migrate';",
        "import { db } from './db';",
        'const app = express();',
        'app.use(async (req, res, next) => {',
        '  await runMigrations(db);',
        '  next();',
        '});',
      ),
      errors: [call(6, 9, '`runMigrations()`')],
    },
  ],
});
