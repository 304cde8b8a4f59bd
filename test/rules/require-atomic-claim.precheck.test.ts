// require-atomic-claim's text pre-check and narrowed call listener: a status word only in a comment
// admits nothing; a status column named only inside SQL text, a read chain spread over lines and
// written in mixed case (`andWhere`, `ORWHERE`) are still found where they are written.
import { ruleTester } from './rule-tester.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];
const worker = (...body: string[]) => lines('export async function relay() {', ...body.map((l) => `  ${l}`), '}');
/** The report from the read at `line`:`start` to the end of the mark that marks its rows, at `endLine`:`end`. */
const claim = (column: string, line: number, start: number, endLine: number, end: number) => ({
  messageId: 'nonAtomicClaim' as const,
  data: { column, markedAt: ` (at line ${endLine}, where this report ends)` },
  line,
  column: start,
  endLine,
  endColumn: end,
});

ruleTester.run('require-atomic-claim pre-check', rule, {
  valid: [
    // The status word and the update are only in comments: the read filters on nothing the rule reads as a state.
    worker(
      '// status: pending rows are updated below',
      "const { rows } = await pool.query('SELECT * FROM accounts WHERE region = $1', [region]);",
      '/* UPDATE accounts SET status = done */',
      'for (const row of rows) await notify(row);',
    ),
    // A status word only in a comment above a read that updates nothing.
    worker(
      '// pending',
      "const rows = await knex('accounts').where({ region }).select('*');",
      'for (const row of rows) await notify(row);',
    ),
  ],
  invalid: [
    // The status column is named only inside the SQL text.
    {
      code: worker(
        'const { rows } = await db.query(`',
        '  SELECT id, payload',
        '  FROM accounts',
        "  WHERE state = 'queued'`);",
        'for (const row of rows) {',
        '  await send(row);',
        "  await db.query('UPDATE accounts SET state = $2 WHERE id = $1', [row.id, 'sent']);",
        '}',
      ),
      errors: [claim('state', 3, 5, 8, 85)],
    },
    // A read chain spread over lines, its filter link written in another case.
    {
      code: worker(
        "const jobs = await knex('accounts')",
        "  .ORWHERE('status', 'pending');",
        'for (const job of jobs) {',
        '  await send(job);',
        "  await knex('accounts').where({ id: job.id }).update({ status: 'done' });",
        '}',
      ),
      errors: [claim('status', 3, 6, 6, 76)],
    },
  ],
});
