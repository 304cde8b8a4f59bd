import { jsRuleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

// A bare `sync()` at a start on a client a project module builds, when that module is out of view
// (a missing file, a source alias: receivers-out-of-view.ts): a name for a database client (`db`,
// `database`, `seqLink`, `ordersDb`) tells Sequelize's schema sync. A name that says nothing of a
// database (`conn`, `store`), a package's export, or a `sync` given an argument does not; a module in
// view decides by its own code (projects-migrations-required-clients.test.ts). A file that loads a
// module named for starting work for its effects (`import './server.js'`) is no bare script.
const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof jsRuleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const call = (line: number, column: number) => ({ messageId: 'schemaWriteCall' as const, line, column });

/** A server's start: `load`, then `<name>.sync(<args>)` before it listens. */
const start = (load: string, name: string, args = '') =>
  lines(
    load,
    "const web = require('./web');",
    'async function boot() {',
    `  await ${name}.sync(${args});`,
    '  web.listen(8080);',
    '}',
    'boot();',
  );

jsRuleTester.run('no-in-app-migrations (clients built in a module out of view)', rule, {
  valid: [
    // names nothing of a database
    start("const { store } = require('./lib/store');", 'store'),
    start("import conn from '~/lib/conn';", 'conn'),
    // a package's export, not a project client
    start("import db from 'tiny-kv';", 'db'),
    // given an argument: another library's sync (`pouch.sync(remote)`)
    start("const { ordersDb } = require('./orders/db');", 'ordersDb', 'process.env.REMOTE_URL'),
    // nothing but the sync and its report, loading a settings module for its effects: a script someone runs (bare-scripts.ts)
    lines(
      "import database from '~/lib/database.js';",
      "import './settings.js';",
      'database',
      '  .sync()',
      "  .then(() => console.log('ready'));",
    ),
    // a name of the file's own making, bound to no module
    start('const db = makeStore();', 'db'),
  ],
  invalid: [
    { code: start("const { db } = require('./store');", 'db'), errors: [call(4, 9)] },
    { code: start("import database from '~/lib/database.js';", 'database'), errors: [call(4, 9)] },
    { code: start("const seqLink = require('../store/link');", 'seqLink'), errors: [call(4, 9)] },
    { code: start("import { ordersDb } from '@/orders/db';", 'ordersDb'), errors: [call(4, 9)] },
    // the call on the line after its receiver, at the top level of a file that loads the server for its effects
    {
      code: lines(
        "import database from '~/lib/database.js';",
        "import './server.js';",
        'database',
        '  .sync()',
        "  .then(() => console.log('ready'));",
      ),
      errors: [call(3, 1)],
    },
  ],
});
