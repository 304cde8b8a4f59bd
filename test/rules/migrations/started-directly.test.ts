// A file that runs its work only when started as a program — `require.main === module`, ESM's
// `import.meta.url` against `process.argv[1]`, `import.meta.main`, or a top-level `const` holding
// one of them (`const isMain = …; if (isMain) main()`) — is an operator's script: the migrator it
// runs is not part of any replica's start. A `const` holding anything else is no such test. Also:
// a migrate script in a folder of its own under scripts/, and a purge script, are one-off commands.
import { ruleTester } from '../rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../../rules/no-in-app-migrations.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const KNEX = "import knexFactory from 'knex';";
const RUN = ['export async function runBench() {', '  const knex = knexFactory(config);', '  await knex.migrate.latest();', '}'];
const MAIN = ['async function main() {', '  await runBench();', '}'];
const call = (line: number, column: number) => ({ messageId: 'schemaWriteCall' as const, line, column });

ruleTester.run('no-in-app-migrations: scripts that run only when started', rule, {
  valid: [
    {
      code: lines(
        KNEX,
        ...RUN,
        'const isMain =',
        "  typeof require !== 'undefined' &&",
        '  require.main === module;',
        ...MAIN,
        'if (isMain) {',
        '  main();',
        '}',
      ),
      filename: '/srv/app/src/tools/bench.ts',
    },
    {
      code: lines(
        KNEX,
        "import { pathToFileURL } from 'node:url';",
        ...RUN,
        ...MAIN,
        'if (import.meta.url === pathToFileURL(process.argv[1]).href) main();',
      ),
      filename: '/srv/app/src/tools/bench.ts',
    },
    {
      code: lines(
        KNEX,
        "import { fileURLToPath } from 'node:url';",
        ...RUN,
        ...MAIN,
        'const isEntry = process.argv[1] === fileURLToPath(import.meta.url);',
        'if (isEntry) void main();',
      ),
      filename: '/srv/app/src/tools/bench.ts',
    },
    { code: lines(KNEX, ...RUN, ...MAIN, 'if (import.meta.main) await main();'), filename: '/srv/app/src/tools/bench.ts' },
    // a purge script an operator types: it starts its own run at the top level
    {
      code: lines(
        KNEX,
        'async function main() {',
        '  const knex = knexFactory(config);',
        '  await knex.migrate.latest();',
        "  await knex('events').del();",
        '}',
        'main().catch(() => process.exit(1));',
      ),
      filename: '/srv/app/src/database/purge.ts',
    },
    // one migrate script per service, in a folder of its own under scripts/
    {
      code: lines(
        "import { migrate } from 'drizzle-orm/postgres-js/migrator';",
        "import { db } from '../../src/db';",
        "migrate(db, { migrationsFolder: 'migrations/orders' });",
      ),
      filename: '/srv/app/scripts/migrate/migrate-orders-service.ts',
    },
  ],
  invalid: [
    // a const that is not a main-module test: the server's own role switch
    {
      code: lines(KNEX, ...RUN, "const isMain = process.env.ROLE === 'main';", ...MAIN, 'if (isMain) {', '  main();', '}'),
      filename: '/srv/app/src/tools/bench.ts',
      errors: [call(4, 9)],
    },
    // comparing the file's URL with something other than the started path
    {
      code: lines(KNEX, ...RUN, ...MAIN, 'if (import.meta.url.endsWith(process.env.ENTRY ?? "")) main();'),
      filename: '/srv/app/src/tools/bench.ts',
      errors: [call(4, 9)],
    },
    // a purge job that runs again is not a one-off
    {
      code: lines(
        KNEX,
        'async function main() {',
        '  const knex = knexFactory(config);',
        '  await knex.migrate.latest();',
        '}',
        'main();',
        'setInterval(main, 60_000);',
      ),
      filename: '/srv/app/src/database/purge.ts',
      errors: [call(4, 9)],
    },
    // a migrate… file outside scripts/ keeps its other names' rules: a boot module
    {
      code: lines(
        "import { migrate } from 'drizzle-orm/postgres-js/migrator';",
        "import { db } from './db';",
        "export const boot = () => migrate(db, { migrationsFolder: 'migrations' });",
      ),
      filename: '/srv/app/src/migrate-on-boot.ts',
      errors: [call(3, 27)],
    },
  ],
});
