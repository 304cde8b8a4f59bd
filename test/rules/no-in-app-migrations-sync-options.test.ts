import { jsRuleTester, ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

// Sequelize's `sync` told by its options: `conn.sync({ alter: true })` on the client a project module
// builds and exports under a name of its own, in a file that neither imports Sequelize nor names it.
// `force` and `alter` are Sequelize's schema options; `glob.sync(pattern)`, `repo.sync()` and a
// `sync` given other options are no schema write. And a file whose run is switched on only by the
// variable of a seed or reset command (`if (process.env.SEED) insertDB();`, set by `"db:seed":
// "cross-env SEED=true node db/build.js"`) is that command, not a replica's start; a switch named
// otherwise, or a file that also starts work unswitched, is still reported.
const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const call = (line: number, column: number) => ({ messageId: 'schemaWriteCall' as const, line, column });

/** A server entry that syncs the project's client with `options` before it listens. */
const boot = (options: string) =>
  lines(
    "const server = require('./src/app.js');",
    "const { conn } = require('./src/db.js');",
    `conn.sync(${options}).then(() => {`,
    '  server.listen(3001);',
    '});',
  );

/** A seed module whose run is `if (<test>) insertDB();`, then `after`. */
const seed = (test: string, after = '') =>
  lines(
    "const sequelize = require('./connection');",
    "const { Language } = require('../../models');",
    'const insertDB = async () => {',
    '  await sequelize.sync({ force: true });',
    '  await Language.bulkCreate([{ name: "en" }]);',
    '};',
    `if (${test}) {`,
    '  insertDB();',
    '}',
    after,
    'module.exports = insertDB;',
  );

jsRuleTester.run('no-in-app-migrations (sync told by its options, seed switches)', rule, {
  valid: [
    boot(''),
    boot("'src/**/*.js'"),
    boot('{ cwd: root }'),
    lines("const glob = require('glob');", "const files = glob.sync('migrations/*.js', { nodir: true });"),
    // A file that names Sequelize: the receiver's own evidence decides, and `store` shows none.
    lines("const { sequelize, store } = require('./db');", 'store.sync({ force: true });'),
    // A file that imports Sequelize, a receiver handed in: no schema option, no schema write told.
    lines("const { QueryTypes } = require('sequelize');", 'module.exports = async (backupDb) => {', '  await backupDb.sync();', '};'),
    lines("const { QueryTypes } = require('sequelize');", 'module.exports = async (repo) => {', '  await repo.sync({ since: 0 });', '};'),
    seed('process.env.SEED'),
    seed("process.env.DB_SEED === 'true'"),
    seed("process.env['RESET_DB']"),
  ],
  invalid: [
    { code: boot('{ force: false }'), errors: [call(3, 1)] },
    { code: boot('{ alter: true }'), errors: [call(3, 1)] },
    { code: boot("{ 'force': true, logging: false }"), errors: [call(3, 1)] },
    // Awaited, on a client another module exports as a property.
    { code: lines("const db = require('./db');", 'await db.client.sync({ alter: true });'), errors: [call(2, 7)] },
    // A file that imports Sequelize, a connection handed in as a parameter: `alter` tells Sequelize's sync.
    {
      code: lines(
        "const { QueryTypes } = require('sequelize');",
        'module.exports = async (backupDb, table) => {',
        '  backupDb.define(table, {});',
        '  await backupDb',
        '    .sync({ alter: true })',
        '    .catch((err) => console.log(err));',
        '};',
      ),
      errors: [call(4, 9)],
    },
    // A switch named for no chore: a configured replica takes it.
    { code: seed('process.env.RUN_MIGRATIONS'), errors: [call(4, 9)] },
    // The module also starts work of its own, unswitched.
    { code: seed('process.env.SEED', 'insertDB();'), errors: [call(4, 9)] },
  ],
});
