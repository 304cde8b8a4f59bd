// require-atomic-claim on the shapes of batch workers: rows marked together after the loop, state
// kept in a flag named for what was done (`welcomeEmailSent`, `reminder_sent_at`), a select that is
// only a subquery of one statement, a state filter on a related row, rows scoped to the caller
// through a relation, and MongoDB's `modifiedCount` after a `$set` of the new state.
import { ruleTester } from './rule-tester.js';
import { claim } from './claim-report.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

/** Wraps a worker body in an async function (line 1 is the function, the body starts on line 2). */
const worker = (...body: string[]) => lines('export async function tick(db, pool) {', ...body.map((l) => `  ${l}`), '}');

const PENDING = "const jobs = await db.job.findMany({ where: { status: 'PENDING' }, take: 50 });";

ruleTester.run('require-atomic-claim (batch workers)', rule, {
  valid: [
    // ---- marked after the loop: only a use that names the rows counts
    // the rows' count written to the run's own row
    worker(
      PENDING,
      'for (const job of jobs) await send(job);',
      "await db.run.update({ where: { id: runId }, data: { status: 'DONE', total: jobs.length } });",
    ),
    // each row claimed in the loop by a checked conditional transition, the batch marked done after it
    worker(
      PENDING,
      'const done = [];',
      'for (const job of jobs) {',
      "  const { count } = await db.job.updateMany({ where: { id: job.id, status: 'PENDING' }, data: { status: 'RUNNING' } });",
      '  if (count === 0) continue;',
      '  await send(job);',
      '  done.push(job.id);',
      '}',
      "await db.job.updateMany({ where: { id: { in: done } }, data: { status: 'DONE' } });",
    ),
    // the batch marked with a re-checked state, its count deciding
    worker(
      PENDING,
      'const ids = jobs.map((job) => job.id);',
      "const { count } = await db.job.updateMany({ where: { id: { in: ids }, status: 'PENDING' }, data: { status: 'RUNNING' } });",
      'if (count !== ids.length) return;',
      'for (const job of jobs) await send(job);',
    ),
    // a list built in the loop from something else than the rows
    worker(
      PENDING,
      'const seen = [];',
      'for (const job of jobs) seen.push(Date.now());',
      "await db.job.updateMany({ where: { id: { in: seen } }, data: { status: 'DONE' } });",
    ),
    // ids of other rows the list refers to (a foreign key), marked after the loop
    worker(
      "const campaigns = await db.campaign.findMany({ where: { status: 'ACTIVE' } });",
      'const workflowIds = campaigns.flatMap((campaign) => (campaign.workflowId ? [campaign.workflowId] : []));',
      'await db.workflow.updateMany({ where: { id: { in: workflowIds } }, data: { disabledAt: new Date() } });',
    ),
    worker(
      "const jobs = await db.job.findMany({ where: { status: 'PENDING' } });",
      'const owners = [];',
      'for (const job of jobs) owners.push(job.ownerId);',
      "await db.owner.updateMany({ where: { id: { in: owners } }, data: { state: 'NOTIFIED' } });",
    ),
    // the whole batch behind a Redis lock taken with Upstash's lower-case options
    worker(
      "const acquired = await redis.set('lock:retry', '1', { nx: true, ex: 600 });",
      'if (!acquired) return;',
      PENDING,
      'const ids = jobs.map(({ id }) => id);',
      'await Promise.all(jobs.map((job) => publish(job)));',
      "await db.job.updateMany({ where: { id: { in: ids } }, data: { status: 'SENT' } });",
    ),
    // ---- a flag named for what was done, re-checked with the count used
    worker(
      'const users = await db.user.findMany({ where: { welcomeEmailSent: false }, take: 20 });',
      'for (const user of users) {',
      '  const { count } = await db.user.updateMany({ where: { id: user.id, welcomeEmailSent: false }, data: { welcomeEmailSent: true } });',
      '  if (count === 1) await mailer.send(user.email);',
      '}',
    ),
    // a name that only ends like one is no state word (`consent`; a boolean filtered `false` and set
    // `true` is a flag of its own, require-atomic-claim.flag-pairs.test.ts)
    worker(
      "const users = await db.user.findMany({ where: { consent: 'unknown' }, take: 20 });",
      'for (const user of users) {',
      '  await mailer.send(user.email);',
      "  await db.user.update({ where: { id: user.id }, data: { consent: 'asked' } });",
      '}',
    ),
    // ---- a select that is only a subquery of the statement that deletes or updates
    lines(
      "import { and, eq, inArray, lt } from 'drizzle-orm';",
      worker(
        "const expired = db.select({ id: jobs.id }).from(jobs).where(and(eq(jobs.status, 'done'), lt(jobs.finishedAt, cutoff))).limit(500);",
        'const removed = await db.delete(jobs).where(inArray(jobs.id, expired)).returning({ id: jobs.id });',
        'return removed.length;',
      ),
    ),
    worker(
      "const next = db('jobs').where({ status: 'pending' }).select('id').orderBy('id').limit(10);",
      "await db('jobs').whereIn('id', next).update({ status: 'queued' });",
    ),
    // ---- the state filtered is a related row's: the rows are not picked by their own state
    worker(
      "const profiles = await db.profile.findMany({ where: { verifiedAt: { not: null }, owner: { accountStatus: 'approved' } }, take: 50 });",
      'for (const profile of profiles) {',
      '  const stats = await fetchStats(profile.handle);',
      '  await db.profile.update({ where: { id: profile.id }, data: { ...stats, lastCheckedAt: new Date() } });',
      '}',
    ),
    // ---- rows of the caller, named through a relation, by an owner key with a qualifier
    lines(
      'export async function cleanupDrafts(emailAccountId: string, threadId: string) {',
      "  const drafts = await db.action.findMany({ where: { rule: { emailAccountId, threadId }, status: 'PENDING' } });",
      '  for (const draft of drafts) {',
      '    await provider.deleteDraft(draft.draftId);',
      "    await db.action.update({ where: { id: draft.id }, data: { status: 'CLEANED' } });",
      '  }',
      '}',
    ),
    // ---- MongoDB: a `$set` of the new state whose modifiedCount decides
    worker(
      "const due = await db.collection('promotions').find({ state: 'created', startDate: { $lte: now } }).toArray();",
      'for (const promotion of due) {',
      "  const { modifiedCount } = await db.collection('promotions').updateOne({ _id: promotion._id }, { $set: { state: 'active' } });",
      "  if (modifiedCount === 1) emit('activated', promotion);",
      '}',
    ),
    worker(
      "const due = await Promotions.find({ state: 'created' }).toArray();",
      'for (const promotion of due) {',
      "  if ((await Promotions.updateOne({ _id: promotion._id }, { $set: { state: 'active' } })).modifiedCount !== 1) continue;",
      "  emit('activated', promotion);",
      '}',
    ),
    // MongoDB: the filter (the first argument) re-checks the state, and the count decides
    worker(
      "const due = await Jobs.find({ status: 'ready' }).toArray();",
      'for (const job of due) {',
      "  const { matchedCount } = await Jobs.updateOne({ _id: job._id, status: 'ready' }, { $set: { status: 'running' } });",
      '  if (matchedCount === 1) await run(job);',
      '}',
    ),
    worker(
      "const ready = await Jobs.find({ status: 'ready', runId: null }, { projection: { _id: 1 } }).toArray();",
      'const ids = ready.map((doc) => doc._id);',
      "const mods = { $set: { status: 'running', runId } };",
      "const { modifiedCount } = await Jobs.updateMany({ _id: { $in: ids }, status: 'ready', runId: null }, mods);",
      'if (modifiedCount > 0) return Jobs.find({ _id: { $in: ids }, runId }).toArray();',
    ),
  ],
  invalid: [
    // ---- marked after the loop
    // ids collected in the loop, one update for the batch (Prisma)
    claim(
      worker(
        PENDING,
        'const done: string[] = [];',
        'for (const job of jobs) {',
        '  await send(job);',
        '  done.push(job.id);',
        '}',
        "await db.job.updateMany({ where: { id: { in: done } }, data: { status: 'SENT' } });",
      ),
      'findMany',
      'status',
      'db.job.updateMany(',
    ),
    // raw SQL, the rows' ids mapped into the statement's parameters
    claim(
      worker(
        'const { rows } = await pool.query("SELECT * FROM outbox WHERE published_at IS NULL LIMIT 100");',
        'for (const row of rows) await publish(row);',
        "await pool.query('UPDATE outbox SET published_at = now() WHERE id = ANY($1)', [rows.map((r) => r.id)]);",
      ),
      'SELECT',
      'published_at',
      'pool.query(',
    ),
    // a callback over the list, the ids derived from it before the update
    claim(
      worker(
        PENDING,
        'await Promise.all(jobs.map((job) => send(job)));',
        'const ids = jobs.map((job) => job.id);',
        "await db.job.updateMany({ where: { id: { in: ids } }, data: { status: 'SENT' } });",
      ),
      'findMany',
      'status',
      'db.job.updateMany(',
    ),
    // a set of ids
    claim(
      worker(
        "const rows = await knex('invoices').whereNull('processed_at').limit(20);",
        'const charged = new Set();',
        'for (const row of rows) { await charge(row); charged.add(row.id); }',
        "await knex('invoices').whereIn('id', [...charged]).update({ processed_at: knex.fn.now() });",
      ),
      'whereNull',
      'processed_at',
      "knex('invoices').whereIn(",
    ),
    // ---- a flag or a stamp named for what was done
    claim(
      worker(
        'const users = await db.user.findMany({ where: { trialEndEmailSent: false }, take: 20 });',
        'const processed = [];',
        'for (const user of users) {',
        '  await mailer.send(user.email);',
        '  processed.push(user.id);',
        '}',
        'await db.user.updateMany({ where: { id: { in: processed } }, data: { trialEndEmailSent: true } });',
      ),
      'findMany',
      'trialEndEmailSent',
      'db.user.updateMany(',
    ),
    claim(
      worker(
        'const { rows } = await pool.query("SELECT * FROM subscriptions WHERE renewal_notified_at IS NULL AND renews_on < now() + interval \'3 days\'");',
        'for (const sub of rows) {',
        '  await notify(sub);',
        '  await pool.query("UPDATE subscriptions SET renewal_notified_at = now() WHERE id = $1", [sub.id]);',
        '}',
      ),
      'SELECT',
      'renewal_notified_at',
      'pool.query(',
    ),
    // ---- a select awaited on its own is a read, however it is built
    claim(
      worker(
        "const pending = db('jobs').where({ status: 'pending' }).limit(10);",
        'for (const job of await pending) {',
        '  await send(job);',
        "  await db('jobs').where({ id: job.id }).update({ status: 'sent' });",
        '}',
      ),
      'where',
      'status',
      "db('jobs').where(",
    ),
    // ---- the rows' own state beside a related row's
    claim(
      worker(
        "const orders = await db.order.findMany({ where: { status: 'PAID', customer: { status: 'ACTIVE' } } });",
        'for (const order of orders) {',
        '  await ship(order);',
        "  await db.order.update({ where: { id: order.id }, data: { status: 'SHIPPED' } });",
        '}',
      ),
      'findMany',
      'status',
      'db.order.update(',
    ),
    // ---- an owner key in a relation filter, but not the caller's: every account's rows
    claim(
      worker(
        "const drafts = await db.action.findMany({ where: { rule: { emailAccountId: { not: null } }, status: 'PENDING' } });",
        'for (const draft of drafts) {',
        '  await provider.deleteDraft(draft.draftId);',
        "  await db.action.update({ where: { id: draft.id }, data: { status: 'CLEANED' } });",
        '}',
      ),
      'findMany',
      'status',
      'db.action.update(',
    ),
    // ---- MongoDB: the matched count (1 for both replicas), or the result thrown away
    claim(
      worker(
        "const due = await Promotions.find({ state: 'created' }).toArray();",
        'for (const promotion of due) {',
        "  const { matchedCount } = await Promotions.updateOne({ _id: promotion._id }, { $set: { state: 'active' } });",
        "  if (matchedCount === 1) emit('activated', promotion);",
        '}',
      ),
      'find',
      'state',
      'Promotions.updateOne(',
    ),
    claim(
      worker(
        "const due = await Promotions.find({ state: 'created' }).toArray();",
        'for (const promotion of due) {',
        "  await Promotions.updateOne({ _id: promotion._id }, { $set: { state: 'active' } });",
        "  emit('activated', promotion);",
        '}',
      ),
      'find',
      'state',
      'Promotions.updateOne(',
    ),
  ],
});
