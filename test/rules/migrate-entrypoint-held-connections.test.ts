// Migrate entrypoints read right when the file says little: a library module named like an
// entrypoint whose package is out of view (it builds a constant, exports the run, starts nothing),
// and a run that takes its session lock on one connection it checks out of a pool or a helper.
import { ruleTester } from './rule-tester.js';
import { migrateEntrypoint, type MigrateEntrypointMessageIds } from '../../rules/migrate-entrypoint.js';

const lines = (...l: string[]) => l.join('\n');
const rule = migrateEntrypoint as unknown as Parameters<typeof ruleTester.run<MigrateEntrypointMessageIds, readonly unknown[]>>[1];
const EXIT = 'run().catch((error) => {\n  console.error(error);\n  process.exit(1);\n});';

/** A module that builds its folder path, then exports the run on a client it is handed the config of. */
const LIBRARY = lines(
  "import { join } from 'node:path';",
  "import { Client } from 'pg';",
  "import { drizzle } from 'drizzle-orm/node-postgres';",
  "import { migrate } from 'drizzle-orm/node-postgres/migrator';",
  "const folder = join(process.cwd(), 'sql', 'versions');",
  'export async function migrateWith(config: object) {',
  '  const client = new Client(config);',
  '  await client.connect();',
  '  try {',
  '    await migrate(drizzle(client), { migrationsFolder: folder });',
  '  } finally {',
  '    await client.end();',
  '  }',
  '}',
);

/** A script that checks one connection out (`checkout`), takes the lock on `locker`, then applies the files on `runner`. */
const CHECKED_OUT = (checkout: string, locker = 'conn', runner = 'conn') =>
  lines(
    "import { applyFolder } from './apply-folder';",
    "import { pool, openClient } from './pool';",
    'async function run() {',
    `  const conn = ${checkout};`,
    `  await ${locker}.query('SELECT pg_advisory_lock(7301)');`,
    '  try {',
    `    await applyFolder(${runner}, 'sql/versions');`,
    '  } finally {',
    `    await ${locker}.query('SELECT pg_advisory_unlock(7301)');`,
    '  }',
    '}',
    EXIT,
  );

ruleTester.run('migrate-entrypoint: library modules out of view, connections checked out', rule, {
  valid: [
    // a library module outside a command folder: its importers (out of view) run it
    { code: LIBRARY, filename: 'lib/migrate.ts' },
    // the lock on the connection `pool.connect()` hands out, held for the whole run
    { code: CHECKED_OUT('await pool.connect()'), filename: 'src/db/migrate.ts' },
    // …on a client a helper opens for the run
    {
      code: CHECKED_OUT('openClient()')
        .replace("import { pool, openClient } from './pool';", "import { getClient } from './pool';")
        .replace('openClient()', 'getClient()'),
      filename: 'src/db/migrate.ts',
    },
  ],
  invalid: [
    // the same module in a command folder is the run a container starts
    { code: LIBRARY, filename: 'src/cli/migrate.ts', errors: [{ messageId: 'noLock', line: 10, column: 11 }] },
    // the lock sent through the pool itself: each query may take another connection
    {
      code: lines(
        "import { Pool } from 'pg';",
        "import { applyFolder } from './apply-folder';",
        'const pool = new Pool();',
        'async function run() {',
        '  const conn = await pool.connect();',
        "  await pool.query('SELECT pg_advisory_lock(7301)');",
        "  await applyFolder(conn, 'sql/versions');",
        '}',
        EXIT,
      ),
      filename: 'src/db/migrate.ts',
      errors: [{ messageId: 'pool', line: 3, column: 14 }],
    },
    // a connection looked up by another name (`pool.query` result) is not one checked out
    {
      code: CHECKED_OUT('pool.query("SELECT 1")'),
      filename: 'src/db/migrate.ts',
      errors: [{ messageId: 'noLock', line: 1, column: 1 }],
    },
  ],
});
