// require-atomic-claim on SQL sent through a project's own function (`import { query } from
// '../db/pool'`, then `query("SELECT …")`, `query('UPDATE … WHERE id = $1', [row.id])`): read and
// mark are the same as `pool.query`. A conditional update whose row count decides is a claim; a
// `query(…)` handed no SQL is none.
import { ruleTester } from './rule-tester.js';
import { claim } from './claim-report.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

/** Open patrons never nudged, read in a `try`, a letter inserted for each, then `mark`. */
const nudges = (...mark: string[]) =>
  lines(
    "import { query } from '../db/pool';",
    'export async function nudgePatrons(hours: number) {',
    '  let due;',
    '  try {',
    '    due = await query(',
    "      `SELECT id, patron_id FROM patrons WHERE status = 'active' AND nudged_at IS NULL AND started_at < NOW() - ($1 || ' hours')::interval LIMIT 50`,",
    '      [String(hours)],',
    '    );',
    '  } catch (err) {',
    '    return 0;',
    '  }',
    '  for (const patron of due.rows) {',
    "    await query(`INSERT INTO letters (patron_id, kind) VALUES ($1, 'patron')`, [patron.patron_id]);",
    ...mark.map((l) => `    ${l}`),
    '  }',
    '}',
  );

ruleTester.run('require-atomic-claim (SQL through a project function)', rule, {
  valid: [
    // claimed first: the state re-checked and the row count tested before the letter
    lines(
      "import { query } from '../db/pool';",
      'export async function nudgePatrons() {',
      "  const due = await query(`SELECT id, patron_id FROM patrons WHERE status = 'active' AND nudged_at IS NULL LIMIT 50`);",
      '  for (const patron of due.rows) {',
      "    const moved = await query('UPDATE patrons SET nudged_at = NOW() WHERE id = $1 AND nudged_at IS NULL', [patron.id]);",
      '    if (moved.rowCount === 0) continue;',
      "    await query(`INSERT INTO letters (patron_id, kind) VALUES ($1, 'patron')`, [patron.patron_id]);",
      '  }',
      '}',
    ),
    // a `query` handed a filter object, not SQL
    lines(
      "import { query } from '../search';",
      'export async function reindex() {',
      "  const hits = await query({ status: 'active' });",
      '  for (const hit of hits) await query({ id: hit.id, status: "done" });',
      '}',
    ),
  ],
  invalid: [
    claim(
      nudges("await query(`UPDATE patrons SET status = 'nudged', nudged_at = NOW() WHERE id = $1`, [patron.id]);"),
      'SELECT',
      'status',
      "UPDATE patrons SET status = 'nudged', nudged_at = NOW(",
    ),
    // `execute` the same
    claim(
      lines(
        "const { execute } = require('./db');",
        'async function expireHolds() {',
        '  const [holds] = await execute("SELECT * FROM holds WHERE state = \'held\' AND until < NOW()");',
        '  for (const hold of holds) {',
        '    await release(hold);',
        '    await execute("UPDATE holds SET state = \'released\' WHERE id = ?", [hold.id]);',
        '  }',
        '}',
        'module.exports = { expireHolds };',
      ),
      'SELECT',
      'state',
      'execute(',
    ),
  ],
});
