// require-atomic-claim on builders that never read rows into the process — a `let` narrowed step
// by step and sent as the subquery or the filter of one update — and on prunes with other work
// awaited in between that does nothing with the rows read.
import { ruleTester } from './rule-tester.js';
import { claim } from './claim-report.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

/** A resolver body in an async function taking the knex handle and the caller's input. */
const resolver = (...body: string[]) => lines('export async function assign(db, ownerId, limit, all) {', ...body.map((l) => `  ${l}`), '}');

/** Seats narrowed in a `let` (by a policy, or by state), then `use` (the statement that sends the builder). */
const narrowed = (...use: string[]) =>
  lines(
    'export const hold = async (r, ownerId, limit, policy, event) => {',
    "  let batch = r.knex('seats').select('id').limit(limit).forUpdate();",
    '  if (policy && policy.narrow) {',
    '    const custom = await policy.narrow(batch);',
    '    if (custom) batch = custom.batch ? custom.batch : batch;',
    '  } else {',
    "    batch = batch.where({ status: 'pending', event_id: event.id }).whereNull('owner_id');",
    '  }',
    '  if (batch.skipLocked) batch.skipLocked();',
    ...use.map((l) => `  ${l}`),
    '};',
  );

/** Expired sessions read, an unrelated table cleaned, then the tokens of those sessions deleted; `between` before the delete. */
const cleanup = (between: string) =>
  lines(
    'export async function sweep(db, cutoff) {',
    "  const sessions = await db.session.findMany({ where: { status: 'expired', endedAt: { lt: cutoff } }, select: { id: true } });",
    '  const sessionIds = sessions.map((s) => s.id);',
    '  const orphans = await db.upload.findMany({ where: { ownerId: null } });',
    '  await db.upload.deleteMany({ where: { id: { in: orphans.map((o) => o.id) } } });',
    `  ${between}`,
    '  await db.token.deleteMany({ where: { sessionId: { in: sessionIds } } });',
    '}',
  );

ruleTester.run('require-atomic-claim (builders never run as reads, prunes)', rule, {
  valid: [
    // the narrowed builder is the subquery of one UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED)
    narrowed(
      "const n = await r.knex('seats').whereIn('id', batch).update({ owner_id: ownerId, updated_at: new Date() });",
      "if (n > 0) await counters.add(event.id, 'held', n);",
      'return n > 0;',
    ),
    // a builder narrowed in a `let` and sent as the filter of one update
    resolver(
      "const owner = await db('owners').where('id', ownerId).first();",
      "let release = db('seats').where({ owner_id: ownerId, event_id: owner.event_id });",
      'if (!all) {',
      "  release = release.where('status', 'pending');",
      '} else {',
      '  owner.held = 0;',
      '}',
      "const n = await release.update('owner_id', null);",
      "if (n) await counters.add(owner.event_id, 'held', -n);",
      'return owner;',
    ),
    // the same with a delete
    resolver(
      "let stale = db('holds').where({ status: 'pending' });",
      'if (!all) stale = stale.where({ owner_id: ownerId });',
      'await stale.del();',
    ),
    // other tables read and cleaned in between: nothing is done with the sessions but the delete
    cleanup(''),
    cleanup("await db.cache.deleteMany({ where: { kind: 'preview' } });"),
  ],
  invalid: [
    // a builder narrowed in a `let`, then run as a read whose rows are each acted on and marked
    claim(
      resolver(
        "let due = db('reminders').where({ status: 'pending' });",
        'if (!all) due = due.limit(limit);',
        'for (const row of await due) {',
        '  await send(row);',
        "  await db('reminders').where({ id: row.id }).update({ status: 'sent' });",
        '}',
      ),
      'where',
      'status',
      "db('reminders').where(",
    ),
    // work awaited on the rows read before the delete
    claim(cleanup('await revoke(sessionIds);'), 'findMany'),
    claim(cleanup('for (const s of sessions) await audit.record(s);'), 'findMany'),
  ],
});
