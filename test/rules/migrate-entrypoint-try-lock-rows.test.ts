import { ruleTester } from './rule-tester.js';
import { migrateEntrypoint, type MigrateEntrypointMessageIds } from '../../rules/migrate-entrypoint.js';

const lines = (...l: string[]) => l.join('\n');
const rule = migrateEntrypoint as unknown as Parameters<typeof ruleTester.run<MigrateEntrypointMessageIds, readonly unknown[]>>[1];
const ENTRY = 'tools/migrate.ts';

/** A run on one pinned client under a try-lock, whose answer `test` (a statement on `res`) checks. */
const tried = (test: string, sql = 'SELECT pg_try_advisory_lock(91827)') =>
  lines(
    "import { Client } from 'pg';",
    "import { upgradeLedger } from './ledger-steps';",
    'async function main() {',
    '  const ledger = new Client({ connectionString: process.env.POSTGRES_MIGRATE_URL });',
    '  await ledger.connect();',
    `  const res = await ledger.query('${sql}');`,
    `  ${test}`,
    '  try {',
    '    await upgradeLedger(ledger);',
    '  } finally {',
    '    await ledger.end();',
    '  }',
    '}',
    'main().catch((e) => { console.error(e); process.exit(1); });',
  );

ruleTester.run('migrate-entrypoint: a try-lock tested on its row', rule, {
  valid: [
    // The answer's column is tested: a run that did not get the lock stops.
    { code: tried("if (!res.rows[0].pg_try_advisory_lock) throw new Error('busy');"), filename: ENTRY },
    {
      code: tried("if (!res.rows[0]?.acquired) throw new Error('busy');", 'SELECT pg_try_advisory_lock(91827) AS acquired'),
      filename: ENTRY,
    },
    // A blocking lock answers nothing: its row is only read for a log line.
    { code: tried("if (!res.rows[0]) console.warn('no row');", 'SELECT pg_advisory_lock(91827)'), filename: ENTRY },
    // The row's column read into a flag, then tested.
    { code: tried("const won = res.rows[0].pg_try_advisory_lock; if (!won) throw new Error('busy');"), filename: ENTRY },
    // A count of rows is not the answer, but it is no test of the row object either.
    { code: tried("if (res.rows.length === 0) throw new Error('busy');"), filename: ENTRY },
  ],
  invalid: [
    // The row is there whatever the answer: the test never fails.
    {
      code: tried("if (!res.rows[0]) throw new Error('busy');"),
      filename: ENTRY,
      errors: [{ messageId: 'rowTestedTryLock', line: 7, column: 8 }],
    },
    {
      code: tried("if (res.rows?.[0] && true) console.log('locked');"),
      filename: ENTRY,
      errors: [{ messageId: 'rowTestedTryLock', line: 7, column: 7 }],
    },
    // The rows destructured from the result.
    {
      code: tried("if (!rows[0]) throw new Error('busy');").replace('const res = await', 'const { rows } = await'),
      filename: ENTRY,
      errors: [{ messageId: 'rowTestedTryLock', line: 7, column: 8 }],
    },
  ],
});
