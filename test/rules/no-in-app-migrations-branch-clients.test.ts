import { ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

// Sequelize 7 (`@sequelize/core`) is Sequelize: its `sync()` at a start is a schema write. A client
// held in a `let` and given in branches (a server database when a host is configured, a SQLite
// file or memory database otherwise) is a per-host database only when every value it is given is.
const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const call = (line: number, column: number) => ({ messageId: 'schemaWriteCall' as const, line, column });

/** A start function that builds `ledger` in two branches, then syncs it. */
const branches = (server: string, local: string) =>
  lines(
    "import { Sequelize } from '@sequelize/core';",
    "import { SqliteDialect } from '@sequelize/sqlite3';",
    'export async function openLedger() {',
    '  let ledger: Sequelize | null = null;',
    '  if (process.env.LEDGER_HOST) {',
    `    ledger = ${server};`,
    '  } else {',
    `    ledger = ${local};`,
    '  }',
    '  await ledger.authenticate();',
    '  await ledger.sync();',
    '  return ledger;',
    '}',
  );

ruleTester.run('no-in-app-migrations (Sequelize 7, clients chosen in branches)', rule, {
  valid: [
    // both branches open a SQLite database: each host migrates its own
    branches(
      "new Sequelize({ dialect: SqliteDialect, storage: 'ledger.sqlite' })",
      "new Sequelize({ dialect: SqliteDialect, storage: ':memory:' })",
    ),
    branches("new Sequelize('sqlite::memory:')", "new Sequelize({ dialect: 'sqlite', storage: 'ledger.db' })"),
    // `sync` of something else in a file that imports Sequelize 7
    lines(
      "import { Sequelize } from '@sequelize/core';",
      "import fg from 'fast-glob';",
      'export const modelFiles = () => fg.sync("src/models/*.ts");',
    ),
    // a `let` given something else than Sequelize: its `sync()` is that thing's
    lines(
      "const { Sequelize } = require('sequelize');",
      "const { Mirror } = require('./mirror');",
      'let link;',
      'link = new Mirror(process.env.MIRROR_DIR);',
      'link.sync().then(() => console.log("mirrored"));',
    ),
  ],
  invalid: [
    // the server branch migrates the shared database at every start
    {
      code: branches(
        "new Sequelize({ dialect: 'postgres', host: process.env.LEDGER_HOST })",
        "new Sequelize({ dialect: SqliteDialect, storage: ':memory:' })",
      ),
      errors: [call(11, 9)],
    },
    {
      code: lines(
        "import { Sequelize } from '@sequelize/core';",
        "const ledger = new Sequelize({ dialect: 'mysql', host: 'ledger-db' });",
        'await ledger.sync({ alter: true });',
      ),
      errors: [call(3, 7)],
    },
    // a `let` given its Sequelize instance after its declaration
    {
      code: lines(
        "const { Sequelize } = require('sequelize');",
        'let link;',
        'link = new Sequelize(process.env.ORDERS_URL);',
        'link.sync().then(() => console.log("ready"));',
      ),
      errors: [call(4, 1)],
    },
  ],
});
