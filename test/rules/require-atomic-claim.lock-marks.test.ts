// require-atomic-claim on three claim look-alikes and the claims next to them: a lock taken after
// the read whose work re-reads the row and tests it (a model's own lock method, a per-item mutex),
// a claim by token (rows stamped with a token this call made under a re-checked state, then read
// back by it), and the rows of an entity the function deletes; each next to the near-identical
// shape that stays reported (no re-read, a re-read nothing tests, no re-checked state, rows read
// back by something else, the entity kept).
import { ruleTester } from './rule-tester.js';
import { claim } from './claim-report.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

/** A webhook finding the NEW order of a capture, then doing `inside` under the order's own lock method before marking it paid. */
const modelLock = (...inside: string[]) =>
  lines(
    'export async function onCaptureCompleted(models, capture) {',
    "  const order = await models.Order.findOne({ where: { status: 'NEW', captureId: capture.id } });",
    '  if (!order) return;',
    '  await order.lock(async () => {',
    ...inside.map((l) => `    ${l}`),
    '    await recordCapture(order, capture);',
    "    await order.update({ status: 'PAID', processedAt: new Date() });",
    '  });',
    '}',
  );

/** A transfer event finding its pending payout, then doing `inside` under a per-payout mutex before marking it. */
const mutex = (...inside: string[]) =>
  lines(
    "import { withMutex } from './mutex';",
    'export async function onTransferSent(models, event) {',
    "  const payout = await models.Payout.findOne({ where: { status: 'processing', transferId: event.id } });",
    '  if (!payout) return;',
    '  return withMutex(`payout-${payout.id}`, async () => {',
    ...inside.map((l) => `    ${l}`),
    "    await payout.update({ status: 'paid' });",
    '    await notifyPayee(payout);',
    '  });',
    '}',
  );

/** Knex: candidate steps selected, stamped with `write` where `filter`, then read back by `readBack`. */
const tokenClaim = (write: string, filter: string, readBack: string) =>
  lines(
    "import { randomUUID } from 'node:crypto';",
    'export async function takeSteps(trx, limit) {',
    '  const lockId = randomUUID();',
    "  const candidates = await trx('steps').select('id').where('status', 'pending').limit(limit);",
    '  const ids = candidates.map((c) => c.id);',
    `  await trx('steps').update(${write}).whereIn('id', ids)${filter};`,
    `  const rows = await trx('steps').select('*').whereIn('id', ids)${readBack};`,
    '  return rows;',
    '}',
  );

/** Sequelize: a team's open invoices destroyed one by one in a transaction, then `last` done to the team. */
const teamRemoval = (last: string) =>
  lines(
    "const { Op } = require('sequelize');",
    'export async function removeTeam(models, sequelize, team) {',
    '  await sequelize.transaction(async (transaction) => {',
    '    const invoices = await models.Invoice.findAll({',
    '      transaction,',
    "      where: { TeamId: team.id, status: { [Op.not]: ['PAID'] } },",
    '    });',
    '    await Promise.all(invoices.map((invoice) => invoice.destroy({ transaction })));',
    `    await team.${last}({ transaction });`,
    '  });',
    '}',
  );

ruleTester.run('require-atomic-claim (locks, tokens, deleted entities)', rule, {
  valid: [
    // ---- a lock after the read, the row's work recorded elsewhere looked up and tested inside it
    modelLock(
      'const existing = await models.Transaction.findOne({ where: { OrderId: order.id, captureId: capture.id } });',
      'if (existing) return;',
    ),
    // the row re-read in place, its state tested
    modelLock('await order.reload();', "if (order.status !== 'NEW') return;"),
    // a per-item mutex named for a lock, the row reloaded and its state tested
    mutex('await payout.reload();', "if (payout.status !== 'processing') return;"),
    // looked up again by key
    mutex('const fresh = await models.Payout.findByPk(payout.id);', "if (fresh.status !== 'processing') return;"),
    // ---- a claim by token: a re-checked state, the rows read back by the token
    tokenClaim(
      '{ locked_by: lockId, locked_at: new Date() }',
      ".where('status', 'pending').whereNull('locked_by')",
      ".where('locked_by', lockId)",
    ),
    // read back with an object filter
    tokenClaim('{ locked_by: lockId }', ".where('status', 'pending')", '.where({ locked_by: lockId })'),
    // ---- the rows of the entity the function deletes
    teamRemoval('destroy'),
  ],
  invalid: [
    // the lock taken after the read, nothing re-read: both replicas wait their turn and both act
    claim(modelLock(), 'findOne', 'status', 'order.update('),
    claim(mutex(), 'findOne', 'status', 'payout.update('),
    // a re-read whose answer nothing tests
    claim(modelLock('await order.reload();'), 'findOne', 'status', 'order.update('),
    // a lookup of the work that does not decide
    claim(
      modelLock('const existing = await models.Transaction.findOne({ where: { OrderId: order.id } });', 'log(existing);'),
      'findOne',
      'status',
      'order.update(',
    ),
    // ---- the stamp without a re-checked state: a second replica overwrites the first one's token
    claim(tokenClaim('{ locked_by: lockId }', '', ".where('locked_by', lockId)"), 'select', 'status', "trx('steps').update("),
    // the rows read back by what was read, not by the token
    claim(
      tokenClaim('{ locked_by: lockId }', ".where('status', 'pending')", ".whereNotNull('locked_by')"),
      'select',
      'status',
      "trx('steps').update(",
    ),
    // a token handed in, not made here: two callers may pass the same one
    claim(
      lines(
        'export async function takeSteps(trx, lockId) {',
        "  const candidates = await trx('steps').select('id').where('status', 'pending');",
        '  const ids = candidates.map((c) => c.id);',
        "  await trx('steps').update({ locked_by: lockId }).whereIn('id', ids).where('status', 'pending');",
        "  return trx('steps').select('*').where('locked_by', lockId);",
        '}',
      ),
      'select',
      'status',
      "trx('steps').update(",
    ),
    // ---- the entity kept (archived): its children are pending work of a live team
    claim(teamRemoval('archive'), 'findAll', 'status', 'Promise.all('),
  ],
});
