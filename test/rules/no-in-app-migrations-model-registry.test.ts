import { jsRuleTester, ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

// A Sequelize project's `models/index.js` fills one object with its models (`db[model.name] = model`, `db.Ticket =
// require('./ticket')(sequelize, DataTypes)`) and may sync them one by one: `db[name].sync()`, `db.Ticket.sync()`
// are the schema sync as much as `sequelize.sync()`. An object filled with anything else (jobs, caches built
// without the client) says nothing of Sequelize, nor does a lower-case entry of the registry (`db.cache`).
const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const call = (line: number, column: number) => ({ messageId: 'schemaWriteCall' as const, line, column });

const HEAD = lines(
  "const fs = require('fs');",
  "const Sequelize = require('sequelize');",
  'const sequelize = new Sequelize(process.env.DATABASE_URL);',
  'const registry = {};',
);

/** A registry filled from the folder's files, synced one model at a time in the order `order` gives. */
const folderRegistry = lines(
  HEAD,
  "for (const file of fs.readdirSync(__dirname).filter((f) => f !== 'index.js')) {",
  '  const model = require(`./${file}`)(sequelize, Sequelize.DataTypes);',
  '  registry[model.name] = model;',
  '}',
  'registry.syncTables = async (order) => {',
  '  for (const name of order) await registry[name].sync({ alter: true });',
  '};',
  'module.exports = registry;',
);

jsRuleTester.run('no-in-app-migrations (a registry of Sequelize models)', rule, {
  valid: [
    // filled with jobs made without the client: `sync` is the job's own
    lines(HEAD, "registry.Digest = makeJob('digest');", 'registry.Digest.sync();'),
    // a lower-case entry is not a model of the registry
    lines(HEAD, "registry.cache = require('./cache')(sequelize);", 'registry.cache.sync();'),
    // no registry at all: an object of the file never filled
    lines(HEAD, 'const names = Object.keys(registry);', 'names.forEach((n) => registry[n].sync && console.log(n));'),
  ],
  invalid: [
    { code: folderRegistry, errors: [call(10, 35)] },
    {
      code: lines(
        HEAD,
        "registry.Ticket = require('./ticket')(sequelize, Sequelize.DataTypes);",
        'registry.Ticket.sync({ force: false });',
      ),
      errors: [call(6, 1)],
    },
    {
      code: lines(HEAD, "registry.Seat = sequelize.define('seat', {});", 'module.exports = async () => registry.Seat.sync();'),
      errors: [call(6, 30)],
    },
  ],
});
