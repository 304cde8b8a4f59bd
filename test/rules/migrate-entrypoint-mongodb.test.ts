// A migrate script that speaks only MongoDB's protocol: a copy from MongoDB to FerretDB, a MongoDB
// data upgrade. No PostgreSQL session to hold an advisory lock on, no POSTGRES_MIGRATE_URL: the lock
// and URL findings are not made. The driver may come from an import, a `require`, or a loader of the
// script's own given its name (`createRequire(url)('mongodb')`). A script that also loads another
// database module (a SQL driver, the project's `./db`) is judged as before; failures still must exit.
import { ruleTester } from './rule-tester.js';
import { migrateEntrypoint, type MigrateEntrypointMessageIds } from '../../rules/migrate-entrypoint.js';

/** Settings that name the file a migrate entrypoint (not found by its name alone): its URL is checked. */
const namedEntrypoint = (filename: string) => ({ 'replica-guard': { migrateEntrypoints: [filename] } });

const lines = (...l: string[]) => l.join('\n');
const rule = migrateEntrypoint as unknown as Parameters<typeof ruleTester.run<MigrateEntrypointMessageIds, readonly unknown[]>>[1];
const noLockAt = (line: number, column: number) => ({ messageId: 'noLock' as const, line, column });

/** Copies every collection from one MongoDB-protocol server to another, given how the driver is loaded. */
const copy = (load: string, extra = '') =>
  lines(
    load,
    extra,
    'async function migrate() {',
    '  const source = await MongoClient.connect(process.env.SOURCE_MONGO_URL);',
    '  const target = await MongoClient.connect(process.env.DATABASE_URL);',
    '  for (const { name } of await source.db().listCollections().toArray()) {',
    '    const docs = await source.db().collection(name).find().toArray();',
    '    if (docs.length > 0) await target.db().collection(name).insertMany(docs);',
    '  }',
    '  await Promise.all([source.close(), target.close()]);',
    '}',
    'await migrate();',
  );
const FILE = 'bin/migrate-to-ferretdb.mjs';

ruleTester.run('migrate-entrypoint (MongoDB-protocol scripts)', rule, {
  valid: [
    { code: copy("import { MongoClient } from 'mongodb';"), filename: FILE },
    {
      code: copy(
        "import { createRequire } from 'node:module';",
        "const load = createRequire(new URL('../bundle/', import.meta.url));\nconst { MongoClient } = load('mongodb');",
      ),
      filename: FILE,
    },
    { code: copy("const { MongoClient } = require('mongodb');"), filename: 'scripts/migrate-sessions.js' },
  ],
  invalid: [
    {
      // A SQL driver beside it: PostgreSQL's findings apply.
      code: copy("import { MongoClient } from 'mongodb';", "import pg from 'pg';"),
      filename: FILE,
      settings: namedEntrypoint(FILE),
      errors: [{ messageId: 'appUrl', line: 5, column: 44 }, noLockAt(12, 7)],
    },
    {
      // The project's own database module: it may be PostgreSQL.
      code: copy("import { MongoClient } from 'mongodb';", "import { db } from '../src/db';"),
      filename: 'scripts/migrate.mjs',
      settings: namedEntrypoint('scripts/migrate.mjs'),
      errors: [{ messageId: 'appUrl', line: 5, column: 44 }, noLockAt(12, 7)],
    },
  ],
});
