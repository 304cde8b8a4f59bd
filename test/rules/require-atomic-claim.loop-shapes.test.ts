// require-atomic-claim on the other ways a worker walks the rows it read: an index loop (`for (let
// i = 0; i < rows.length; i++) { const row = rows[i]; … }`), the whole list handed to a same-file
// helper that loops over it (also through `const list = result.rows`), and one row picked from the
// list in memory (`rows.find(…)`, `rows[0]`). Reported as a loop over the rows is; quiet when the
// row is claimed by a checked conditional transition first, or the loop walks another list.
import { ruleTester, jsRuleTester } from './rule-tester.js';
import { claim } from './claim-report.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

/** A knex worker over waiting exports, walking them by index; `body` runs for `exp`. */
const byIndex = (body: string[], list = 'exports') =>
  lines(
    'async function shipExports(db) {',
    "  const exports = await db.table('exports').select('exports.*', 'teams.slug as team').join('teams', 'teams.id', 'exports.team_id').where('state', 'waiting');",
    "  const carriers = await db.table('carriers').select();",
    `  for (let n = 0; n < ${list}.length; n++) {`,
    `    const exp = ${list}[n];`,
    ...body.map((l) => `    ${l}`),
    '  }',
    '}',
    'module.exports = { shipExports };',
  );

const SHIP = "await courier.post('/ship', { body: { ref: exp.id } });";
const MARK_SHIPPED = "await db.table('exports').update({ state: 'shipped' }).where('id', exp.id);";

/** A pg worker reading queued refunds and handing the list to `payAll`, whose loop runs `mark`. */
const handedList = (mark: string[], hand = 'const batch = found.rows;\n  await payAll(batch);') =>
  lines(
    "const { pool } = require('./pool');",
    'async function payAll(list) {',
    '  for (const refund of list) {',
    "    await pool.query('UPDATE wallets SET cents = cents + $1 WHERE owner = $2', [refund.cents, refund.owner]);",
    ...mark.map((l) => `    ${l}`),
    '  }',
    '}',
    'async function payRefunds() {',
    "  const found = await pool.query('SELECT * FROM refunds WHERE phase = $1 ORDER BY created LIMIT $2', ['queued', 20]);",
    `  ${hand}`,
    '}',
    'module.exports = { payRefunds };',
  );

const PAID = "await pool.query('UPDATE refunds SET phase = $1 WHERE id = $2', ['paid', refund.id]);";

/** A Sequelize poller: picks the notice due now from the unsent ones, then `after`. */
const picked = (pick: string, ...after: string[]) =>
  lines(
    'async function postNotices() {',
    '  const notices = await Notice.findAll({ raw: true, where: { status: 0 } });',
    `  const due = ${pick};`,
    '  if (!due) return;',
    ...after.map((l) => `  ${l}`),
    '  await channel.broadcast(due.text);',
    '}',
    'module.exports = { postNotices };',
  );

const MARK_SENT = 'await Notice.update({ status: 1 }, { where: { id: due.id } });';

jsRuleTester.run('require-atomic-claim (rows walked by index, handed whole, picked in memory)', rule, {
  valid: [
    // Each export claimed first: the state re-checked, the count deciding.
    byIndex([
      "const moved = await db.table('exports').update({ state: 'shipping' }).where('id', exp.id).where('state', 'waiting');",
      'if (moved === 0) continue;',
      SHIP,
    ]),
    // The index walks another list: carriers are read, not worked.
    lines(
      'async function pingCarriers(db) {',
      "  const exports = await db.table('exports').where('state', 'waiting');",
      "  const carriers = await db.table('carriers').select();",
      '  for (let n = 0; n < carriers.length; n++) {',
      '    const c = carriers[n];',
      "    await db.table('carriers').update({ pinged_at: new Date() }).where('id', c.id);",
      '  }',
      '  return exports;',
      '}',
    ),
    // The helper claims each refund: the phase re-checked, the row count tested.
    handedList([
      "const { rowCount } = await pool.query('UPDATE refunds SET phase = $1 WHERE id = $2 AND phase = $3', ['paying', refund.id, 'queued']);",
      'if (rowCount === 0) continue;',
    ]),
    // The picked notice claimed first.
    picked(
      'notices.find((n) => n.at <= Date.now())',
      'const [won] = await Notice.update({ status: 1 }, { where: { id: due.id, status: 0 } });',
      'if (won === 0) return;',
    ),
  ],
  invalid: [
    claim(byIndex([SHIP, MARK_SHIPPED]), 'select', 'state', "db.table('exports').update("),
    claim(handedList([PAID]), 'SELECT', 'phase', 'payAll(batch)'),
    claim(handedList([PAID], 'await payAll(found.rows);'), 'SELECT', 'phase', 'payAll(found.rows)'),
    claim(picked('notices.find((n) => n.at <= Date.now())', MARK_SENT), 'findAll', 'status', 'Notice.update('),
    claim(picked('notices[0]', MARK_SENT), 'findAll', 'status', 'Notice.update('),
  ],
});
