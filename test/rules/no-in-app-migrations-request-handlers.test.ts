// A migration run inside a request handler — an operator's `POST /admin/migrate`, a route that
// creates a tenant and migrates its schema, a NestJS `@Post()` — runs once, for that request, on
// the replica that took it. The same run at start-up, in a listen callback or in a handler that is
// no route, is every replica's start path and stays reported.
import { jsRuleTester, ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
// Accepted by ESLint at run time; rule-tester's TestLanguageOptions type does not list sourceType.
const script = { sourceType: 'commonjs' } as never;
const call = (line: number, column: number) => ({ messageId: 'schemaWriteCall' as const, line, column });
const HEAD = lines(
  "import knex from 'knex';",
  "import Fastify from 'fastify';",
  "const store = knex({ client: 'pg', connection: process.env.DATABASE_URL });",
  'const app = Fastify();',
);

ruleTester.run('no-in-app-migrations (request handlers)', rule, {
  valid: [
    // an operator's endpoint
    {
      code: lines(
        HEAD,
        "app.post('/admin/migrate', async (request, reply) => {",
        '  await store.migrate.latest();',
        "  return reply.send({ status: 'migrated' });",
        '});',
      ),
    },
    // a tenant created by a request, its schema migrated in the request
    {
      code: lines(
        HEAD,
        'app.post(`/tenants/:id`, async (request) => {',
        '  const tenant = knex({ client: "pg", connection: request.body.url });',
        '  await tenant.migrate.latest();',
        '});',
      ),
    },
    // a NestJS controller method
    {
      code: lines(
        "import { Controller, Post } from '@nestjs/common';",
        "import { DataSource } from 'typeorm';",
        "@Controller('admin')",
        'export class AdminController {',
        '  constructor(private readonly dataSource: DataSource) {}',
        "  @Post('migrate')",
        '  async migrate() {',
        '    await this.dataSource.runMigrations();',
        '  }',
        '}',
      ),
    },
  ],
  invalid: [
    // at start-up
    { code: lines(HEAD, 'await store.migrate.latest();', 'await app.listen({ port: 3000 });'), errors: [call(5, 7)] },
    // in the listen callback: every replica, once it listens
    {
      code: lines(HEAD, 'app.listen({ port: 3000 }, async () => {', '  await store.migrate.latest();', '});'),
      errors: [call(6, 9)],
    },
    // a start hook, not a route: every replica as it starts
    {
      code: lines(HEAD, "app.addHook('onReady', async () => {", '  await store.migrate.latest();', '});'),
      errors: [call(6, 9)],
    },
  ],
});

// Plain JavaScript (espree): a class's methods carry no `decorators`, and its start method is no request handler.
jsRuleTester.run('no-in-app-migrations (request handlers, JavaScript)', rule, {
  valid: [
    {
      languageOptions: script,
      code: lines(
        "const knex = require('knex');",
        "const store = knex({ client: 'pg', connection: process.env.DATABASE_URL });",
        "app.post('/admin/migrate', async (req, res) => { await store.migrate.latest(); res.end(); });",
      ),
    },
  ],
  invalid: [
    {
      languageOptions: script,
      code: lines(
        "const knex = require('knex');",
        "const store = knex({ client: 'pg', connection: process.env.DATABASE_URL });",
        'class Database {',
        '  async start() {',
        '    await store.migrate.latest();',
        '  }',
        '}',
        'module.exports = Database;',
      ),
      errors: [call(5, 11)],
    },
  ],
});
