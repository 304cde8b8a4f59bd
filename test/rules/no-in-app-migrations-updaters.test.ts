// Schema updates by a name alone, where the code that runs them is out of reach: an imported
// function named for bringing the database up to date (`await updateDb()` at a server's start),
// and Prisma Migrate's engine used as a library (`new Migrate(schema).push()`, i.e. `db push`).
import { ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const MIGRATE = "import { Migrate } from '@prisma/migrate/dist/Migrate';";

ruleTester.run('no-in-app-migrations: updaters out of reach', rule, {
  valid: [
    // handed a request's data: an update of records, not of the schema
    lines("import { updateDb } from '@acme/store';", 'export async function save(req) {', '  await updateDb(req.body);', '}'),
    // named for records in the database, not for the database
    lines("import { updateDbRecords } from '@acme/store';", 'export async function main() {', '  await updateDbRecords();', '}'),
    // a function of this file: judged by its body, which writes no schema
    lines('async function updateDb() {', '  cache.clear();', '}', 'export async function main() {', '  await updateDb();', '}'),
    // an array's push in a file that imports Prisma Migrate
    lines(
      MIGRATE,
      "import { ensureDatabaseExists } from '@prisma/migrate/dist/utils/ensureDatabaseExists';",
      'export async function plan(schema) {',
      "  await ensureDatabaseExists('apply', schema);",
      '  const migrate = new Migrate(schema);',
      '  const steps = [];',
      "  steps.push('diagnose');",
      '  return { migrate, steps };',
      '}',
    ),
    // `push` on something Prisma Migrate did not make
    lines(
      MIGRATE,
      "import { ensureDatabaseExists } from '@prisma/migrate/dist/utils/ensureDatabaseExists';",
      'export async function enqueue(job) {',
      "  await ensureDatabaseExists('apply', './prisma/schema.prisma');",
      '  const migrate = makeQueue();',
      '  migrate.push(job);',
      '}',
    ),
  ],
  invalid: [
    // a server's start updates the database through a module the analysis cannot read
    {
      code: lines(
        "import { updateDb } from 'app/server/lib/dbUtils';",
        'export async function main() {',
        '  await updateDb();',
        '  server.listen(8080);',
        '}',
      ),
      errors: [{ messageId: 'schemaWriteCall', data: { api: '`updateDb()`' }, line: 3, column: 9 }],
    },
    // handed the database handle
    {
      code: lines(
        "import { upgradeDatabase } from '@acme/store';",
        'export async function start(db) {',
        '  await upgradeDatabase(db);',
        '}',
      ),
      errors: [{ messageId: 'schemaWriteCall', line: 3, column: 9 }],
    },
    // Prisma Migrate's engine pushing the schema at boot
    {
      code: lines(
        MIGRATE,
        "import { ensureDatabaseExists } from '@prisma/migrate/dist/utils/ensureDatabaseExists';",
        'export async function boot() {',
        "  const migrate = new Migrate('./prisma/schema.prisma');",
        "  await ensureDatabaseExists('apply', './prisma/schema.prisma');",
        '  await migrate.push({ force: false });',
        '}',
      ),
      errors: [{ messageId: 'schemaWriteCall', data: { api: 'Prisma Migrate push()' }, line: 6, column: 9 }],
    },
  ],
});
