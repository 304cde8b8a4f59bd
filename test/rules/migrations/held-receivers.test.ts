// no-in-app-migrations when the migrator's receiver is held in a `const` first: the schema
// generator or migrator a call hands out (`const generator = orm.getSchemaGenerator()`), or the
// member that is one (`const migrations = knex.migrate`), called a line later.
import { ruleTester } from '../rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../../rules/no-in-app-migrations.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const call = (line: number, column: number, api: string) => ({ messageId: 'schemaWriteCall' as const, line, column, data: { api } });

ruleTester.run('no-in-app-migrations: receivers held in a const', rule, {
  valid: [
    // a generator the file makes itself: no migrator handed it out
    lines('const generator = makeGenerator();', 'await generator.updateSchema();'),
    // a `let` given another value later is not known to hold the migrator
    lines(
      "import { MikroORM } from '@mikro-orm/core';",
      'let generator = orm.getSchemaGenerator();',
      'generator = reportOnly(generator);',
      'await generator.updateSchema();',
    ),
  ],
  invalid: [
    {
      code: lines(
        "import { MikroORM } from '@mikro-orm/postgresql';",
        'export async function start() {',
        '  const orm = await MikroORM.init();',
        '  const generator = orm.getSchemaGenerator();',
        '  await generator.updateSchema();',
        '}',
      ),
      errors: [call(5, 9, 'MikroORM getSchemaGenerator()')],
    },
    {
      code: lines('const migrator = await orm.getMigrator();', 'await migrator.up();'),
      errors: [call(2, 7, 'MikroORM getMigrator()')],
    },
    {
      code: lines(
        "import Knex from 'knex';",
        'const knex = Knex({ client: "pg" });',
        'const migrations = knex.migrate;',
        'await migrations.latest();',
      ),
      errors: [call(4, 7, 'knex.migrate.latest()')],
    },
  ],
});
