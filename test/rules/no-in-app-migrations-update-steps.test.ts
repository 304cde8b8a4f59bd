// A versioned schema updater that names no migrator: a loop that loads one step module per
// pending version from an updates folder by a computed path and runs it. Reported at the calls of
// the function that holds the loop when the file makes them, else at the step's run.
import { ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];

ruleTester.run('no-in-app-migrations: versioned update steps', rule, {
  valid: [
    // plugins loaded by a computed path: not an updates folder
    lines(
      'export async function loadPlugins(app, names) {',
      '  const db = await connectDatabase();',
      '  for (const name of names) {',
      '    const plugin = require(`./plugins/${name}`);',
      '    await plugin(app, db);',
      '  }',
      '}',
    ),
    // one step named by a literal path: not a loop over versions
    lines(
      'export async function applyHotfix(versions) {',
      '  const db = await connectDatabase();',
      '  for (const version of versions) {',
      "    const step = require('./updates/3.0.0');",
      '    await step(db, version);',
      '  }',
      '}',
    ),
    // a step module loaded outside any loop
    lines(
      'export async function schemaStep(version) {',
      '  const db = await connectDatabase();',
      '  const step = require(`./schema/v${version}`);',
      '  return step(db);',
      '}',
    ),
    // each step loaded only to read its description
    lines(
      'export async function describeUpdates(versions) {',
      '  const db = await connectDatabase();',
      '  const notes = [];',
      '  for (const version of versions) {',
      '    const step = require(`./updates/${version}`);',
      '    notes.push(step.description);',
      '  }',
      '  return notes;',
      '}',
    ),
  ],
  invalid: [
    // the function holding the loop is called in the file's start function: reported there
    {
      code: lines(
        "const path = require('path');",
        'module.exports = function (db, config) {',
        '  const applyUpdates = async function (pending) {',
        '    for (const version of pending) {',
        '      const update = require(path.join(__dirname, `updates/${version}`));',
        '      await update(db, config);',
        '    }',
        '  };',
        '  const start = async function () {',
        '    await connectDatabase();',
        '    await applyUpdates(await pendingVersions());',
        '    return db;',
        '  };',
        '  return { start };',
        '};',
      ),
      errors: [{ messageId: 'schemaWriteCall', data: { api: '`applyUpdates() (each update module)`' }, line: 11, column: 11 }],
    },
    // a method the service calls from elsewhere: reported at the step's run, through `new`
    {
      code: lines(
        'export class Store {',
        '  public async init(target = 12): Promise<void> {',
        '    let version = await this.getSchemaVersion();',
        '    while (version < target) {',
        '      version++;',
        '      const Step = require(`./db/schema/v${version}`).Step;',
        '      const step = new Step();',
        '      await step.run(this);',
        '      await this.setSchemaVersion(version);',
        '    }',
        '  }',
        '}',
      ),
      errors: [{ messageId: 'schemaWriteCall', data: { api: '`step.run() (each update module)`' }, line: 8, column: 13 }],
    },
    // an `eachSeries` callback over the pending versions
    {
      code: lines(
        "const async = require('async');",
        'exports.upgrade = async function (pending, done) {',
        '  const db = await connectDatabase();',
        '  async.eachSeries(pending, function (version, next) {',
        "    const up = require('./upgrades/' + version);",
        '    up(db, next);',
        '  }, done);',
        '};',
      ),
      errors: [{ messageId: 'schemaWriteCall', line: 6, column: 5 }],
    },
  ],
});
