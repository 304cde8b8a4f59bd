// no-in-app-migrations on Sequelize clients another module builds and a file requires
// (fixture test/rules/projects/migrations-required-clients): the dialect that module gives the
// client decides (a SQLite file on each host is quiet), and a bare `conn.sync()` on a required
// client is told by what that module exports.
import { describe, expect, test } from 'vitest';
import { lintProjectFile } from './lint-project.js';

const findings = (file: string) => lintProjectFile('migrations-required-clients', file, ['no-in-app-migrations']);

describe('clients required from another module', () => {
  test('a client destructured from a module that builds it on SQLite is migrated per host', async () => {
    expect(await findings('events/connected.js')).toEqual([]);
  });

  test('the same client built on MySQL is reported', async () => {
    expect(await findings('events/joined.js')).toEqual(['replica-guard/no-in-app-migrations events/joined.js:7:11 schemaWriteCall']);
  });

  test('`conn.sync()` on the Sequelize a required module exports is reported, with no Sequelize named in the file', async () => {
    expect(await findings('models/index.js')).toEqual(['replica-guard/no-in-app-migrations models/index.js:9:9 schemaWriteCall']);
  });

  test('`sync()` on a required module that exports something else is not', async () => {
    expect(await findings('models/scores.js')).toEqual([]);
  });

  test('nor under a name for a database client: the module in view decides, not the name', async () => {
    expect(await findings('models/archive.js')).toEqual([]);
  });
});
