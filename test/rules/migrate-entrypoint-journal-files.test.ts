// A build script named like a migrate entrypoint that turns a migrator's JSON journal into a
// deployment file: JSON modules are data, so with only Node's file modules besides, it reaches no
// database and needs no lock. One that also loads a database client is still the run.
import { ruleTester } from './rule-tester.js';
import { migrateEntrypoint, type MigrateEntrypointMessageIds } from '../../rules/migrate-entrypoint.js';

const lines = (...l: string[]) => l.join('\n');
const rule = migrateEntrypoint as unknown as Parameters<typeof ruleTester.run<MigrateEntrypointMessageIds, readonly unknown[]>>[1];
const noLockAt = (line: number, column: number) => ({ messageId: 'noLock' as const, line, column });

const BUNDLER = (head: string) =>
  lines(
    head,
    "import { writeFileSync } from 'node:fs';",
    "const { default: ledger } = await import('../db/meta/ledger.json', { with: { type: 'json' } });",
    'const steps = ledger.items.map((item: { tag: string }) => ({ tag: item.tag }));',
    "writeFileSync('db/migrations/steps.json', JSON.stringify(steps));",
  );

ruleTester.run('migrate-entrypoint (journal files)', rule, {
  valid: [
    // the journal imported dynamically, or statically, then a file written: no database in reach
    { code: BUNDLER("import path from 'node:path';"), filename: 'scripts/migrate.ts' },
    {
      code: lines(
        "import ledger from '../db/ledger.json';",
        "import fs from 'fs';",
        "fs.writeFileSync('db/migrations/out.json', JSON.stringify(ledger));",
      ),
      filename: 'tools/migrate.ts',
    },
  ],
  invalid: [
    // the same script with a database client in reach is the run, and holds no lock
    {
      code: lines(
        BUNDLER("import { migrate } from 'drizzle-orm/node-postgres/migrator';"),
        "await migrate(db, { migrationsFolder: 'drizzle' });",
      ),
      filename: 'scripts/migrate.ts',
      errors: [noLockAt(6, 7)],
    },
  ],
});
