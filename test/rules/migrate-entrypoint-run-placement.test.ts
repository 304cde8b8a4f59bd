// migrate-entrypoint: where a missing lock is reported when the file defines its own runner. The
// race happens at the run the script starts (`await runMigrations(pool, dir)` in `main`), not at the
// step inside the runner it defines (`applyMigration(…)`), even when that step comes first.
import { ruleTester } from './rule-tester.js';
import { migrateEntrypoint, type MigrateEntrypointMessageIds } from '../../rules/migrate-entrypoint.js';

const lines = (...l: string[]) => l.join('\n');
const rule = migrateEntrypoint as unknown as Parameters<typeof ruleTester.run<MigrateEntrypointMessageIds, readonly unknown[]>>[1];
const FILE = 'scripts/migrate.ts';

/** A hand-written runner: `applyMigration` per file, called by `runMigrations`, run from `main` (line 16). */
const runner = (lock: string[], db = 'Pool') =>
  lines(
    "import { readdir, readFile } from 'node:fs/promises';",
    `import { ${db} } from 'pg';`,
    `async function applyMigration(pool: ${db}, file: string) {`,
    "  await pool.query(await readFile(file, 'utf8'));",
    "  await pool.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);",
    '}',
    `async function runMigrations(pool: ${db}, dir: string) {`,
    ...lock,
    '  for (const file of (await readdir(dir)).sort()) await applyMigration(pool, `${dir}/${file}`);',
    '}',
    'async function main() {',
    `  const pool = new ${db}({ connectionString: process.env.MIGRATE_DATABASE_URL });`,
    ...(db === 'Client' ? ['  await pool.connect();'] : []),
    '  try {',
    "    await runMigrations(pool, 'migrations');",
    '  } finally {',
    '    await pool.end();',
    '  }',
    '}',
    'main().catch((error) => {',
    '  console.error(error);',
    '  process.exit(1);',
    '});',
  );

ruleTester.run('migrate-entrypoint (where the run is reported)', rule, {
  valid: [
    // the same runner on one client under a session advisory lock: nothing to report
    { code: runner(["  await pool.query('SELECT pg_advisory_lock(4242)');"], 'Client'), filename: FILE },
  ],
  invalid: [
    // no lock: reported at the run `main` starts, not at the step defined above it
    { code: runner([]), filename: FILE, errors: [{ messageId: 'noLock', line: 13, column: 11 }] },
  ],
});
