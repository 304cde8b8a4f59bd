// A data module that hands out the rows still in a state (a whole-table read returned to its
// caller) and marks one of them by its key, setting that state with no re-check: whoever calls the
// two in turn claims nothing. Reported on the read; not when the read is one caller's, the mark
// re-checks the state, or the mark sets another column.
import { ruleTester } from './rule-tester.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

const FILE = 'src/data/notices.ts';

/** A module of two helpers: `read` hands rows out, `mark` marks one. */
const MODULE = (read: string, mark: string, readParams = '') =>
  lines(
    "import { pool } from './pool';",
    `export async function findDueNotices(${readParams}) {`,
    `  const result = await pool.query(${read});`,
    '  return result.rows;',
    '}',
    'export async function markNoticeDelivered(noticeId: number) {',
    `  await pool.query(${mark}, [noticeId]);`,
    '}',
  );

const DUE = '"SELECT * FROM notices WHERE delivered_at IS NULL AND due_at <= now() ORDER BY due_at"';
const MARK = '"UPDATE notices SET delivered_at = now() WHERE id = $1"';

ruleTester.run('require-atomic-claim: a pending read and a mark in two helpers of one module', rule, {
  valid: [
    // the mark re-checks the state: the caller can tell by the row count
    { code: MODULE(DUE, '"UPDATE notices SET delivered_at = now() WHERE id = $1 AND delivered_at IS NULL"'), filename: FILE },
    // one caller's rows (a user's own list), not a whole-table scan
    {
      code: MODULE('"SELECT * FROM notices WHERE owner_id = $1 AND delivered_at IS NULL", [ownerId]', MARK, 'ownerId: string'),
      filename: FILE,
    },
    // the mark sets another column than the state the read filters on
    { code: MODULE(DUE, '"UPDATE notices SET title = $2 WHERE id = $1"'), filename: FILE },
    // the read is not handed out: counted here
    {
      code: MODULE(DUE, MARK).replace('  return result.rows;', '  return result.rowCount;'),
      filename: FILE,
    },
  ],
  invalid: [
    {
      code: MODULE(DUE, MARK),
      filename: FILE,
      errors: [{ messageId: 'nonAtomicClaim', data: { column: 'delivered_at', markedAt: '' }, line: 3, column: 36 }],
    },
    // …with a batch size the caller picks
    {
      code: MODULE('"SELECT * FROM notices WHERE delivered_at IS NULL AND due_at <= now() LIMIT $1", [limit]', MARK, 'limit = 50'),
      filename: FILE,
      errors: [{ messageId: 'nonAtomicClaim', data: { column: 'delivered_at', markedAt: '' }, line: 3, column: 36 }],
    },
  ],
});
