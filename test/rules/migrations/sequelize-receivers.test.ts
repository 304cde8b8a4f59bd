// no-in-app-migrations on `.sync()`: Sequelize's schema write only when the receiver shows itself
// to be a Sequelize instance or model. A file-listing `glob.sync(pattern)`, a directory helper's
// `mkdirp.sync(dir)` or the project's own `collection.sync()` beside an import of Sequelize is not.
import { ruleTester } from '../rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../../rules/no-in-app-migrations.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const sync = (line: number, column: number) => ({ messageId: 'schemaWriteCall' as const, line, column, data: { api: 'Sequelize sync()' } });
const SEQUELIZE = "import { Sequelize, Model, type ModelStatic } from 'sequelize';";

ruleTester.run('no-in-app-migrations: the receiver of sync()', rule, {
  valid: [
    // a glob library's file listing, in a module that also builds the Sequelize instance
    lines(SEQUELIZE, "import fg from 'fast-glob';", 'export function seedFiles(dir: string) {', '  return fg.sync(`${dir}/*.ts`);', '}'),
    lines(SEQUELIZE, "import glob from 'glob';", 'const files = glob.sync("migrations/*.js", { ignore: ["**/*.d.ts"] });'),
    // a directory helper required in CommonJS
    lines("const { Sequelize } = require('sequelize');", "const mkdirp = require('mkdirp');", 'mkdirp.sync(uploadDir);'),
    // the project's own object with a sync method: a field typed with a project class
    lines(
      SEQUELIZE,
      "import { Collection } from './collection';",
      'export class Field {',
      '  constructor(private readonly collection: Collection) {}',
      '  async save() { await this.collection.sync({ force: false }); }',
      '}',
    ),
    // a parameter typed with another library's class
    lines(
      SEQUELIZE,
      "import type { Replicator } from './replicator';",
      'export const push = (replicator: Replicator) => replicator.sync();',
    ),
    // a lower-case import from a project module is not a model class
    lines(SEQUELIZE, "import cache from './cache';", 'await cache.sync();'),
    // an instance of a project class (a model class is not constructed to sync)
    lines(SEQUELIZE, "import { Feed } from './feed';", 'const feed = new Feed(db);', 'await feed.sync();'),
    // a `new` of another class
    lines(SEQUELIZE, "import { Mirror } from 'repo-mirror';", 'const mirror = new Mirror(dir);', 'await mirror.sync();'),
  ],
  invalid: [
    // the instance by its name, held by a field, built here, or annotated
    { code: lines(SEQUELIZE, 'export class Db {', '  async start() { await this.sequelize.sync(); }', '}'), errors: [sync(3, 25)] },
    {
      code: lines(SEQUELIZE, 'const db = new Sequelize(process.env.DATABASE_URL!);', 'await db.sync({ alter: true });'),
      errors: [sync(3, 7)],
    },
    { code: lines(SEQUELIZE, 'export async function boot(orm: Sequelize) {', '  await orm.sync();', '}'), errors: [sync(3, 9)] },
    {
      code: lines(
        SEQUELIZE,
        'export class Boot {',
        '  constructor(private readonly connection: Sequelize) {}',
        '  start() { return this.connection.sync(); }',
        '}',
      ),
      errors: [sync(4, 20)],
    },
    {
      code: lines("const db = require('./models');", "const { Sequelize } = require('sequelize');", 'db.sequelize.sync();'),
      errors: [sync(3, 1)],
    },
    // models: defined here, a subclass of Model, imported from the project, or typed as one
    {
      code: lines(
        SEQUELIZE,
        'const sequelize = new Sequelize(url);',
        "const Order = sequelize.define('order', {});",
        'await Order.sync();',
      ),
      errors: [sync(4, 7)],
    },
    { code: lines(SEQUELIZE, 'class Invoice extends Model {}', 'await Invoice.sync({ alter: true });'), errors: [sync(3, 7)] },
    { code: lines(SEQUELIZE, "import Customer from '../models/customer';", 'await Customer.sync();'), errors: [sync(3, 7)] },
    { code: lines(SEQUELIZE, 'export const prepare = (target: ModelStatic<Model>) => target.sync();'), errors: [sync(2, 56)] },
    { code: lines(SEQUELIZE, 'for (const model of models) await model.sync();'), errors: [sync(2, 35)] },
  ],
});
