// require-atomic-claim on reads and updates that look like a claim but are not: a retention
// clean-up of rows finished long ago (an age cutoff on a done stamp), a read of the rows a caller
// named by key (Drizzle `eq` / `inArray`, Prisma `id: { in }`, SQL `id IN`), and an
// update that re-checks the very column it writes (a compare-and-set by another name than
// `status`) whose row count decides; and a worker handed by name to a lock. Each next to the
// near-identical claim that is reported.
import { ruleTester } from './rule-tester.js';
import { claim } from './claim-report.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

const DRIZZLE = "import { and, eq, inArray, isNull, lt } from 'drizzle-orm';\nimport { db, schema } from './db';";

/** A Sequelize clean-up of runs with `filter` as its `where`, deleting their events and then them by id. */
const retention = (filter: string) =>
  lines(
    "const { Op } = require('sequelize');",
    'async function purgeRuns(db, days) {',
    '  const cutoff = new Date(Date.now() - days * 86400000);',
    `  const old = await db.ImportRun.findAll({ where: ${filter}, attributes: ['id'] });`,
    '  const ids = old.map((run) => run.id);',
    '  await db.ImportRunEvent.destroy({ where: { runId: ids } });',
    '  await db.ImportRun.destroy({ where: { id: ids } });',
    '}',
  );

/** A Drizzle webhook handler reading a task by `filter` and updating it by id. */
const linked = (filter: string) =>
  lines(
    DRIZZLE,
    'export async function onIssueEdited(payload, link) {',
    `  const task = await db.query.tasks.findFirst({ where: ${filter} });`,
    '  if (!task) return;',
    '  await notify(task.assigneeId);',
    '  await db.update(schema.tasks).set({ title: payload.title, syncedAt: new Date() }).where(eq(schema.tasks.id, task.id));',
    '}',
  );

/** Pending invites read, each claimed by `update` (its row count in `res`), then sent. */
const invites = (update: string) =>
  lines(
    'export async function sendInvites(pool) {',
    '  const { rows } = await pool.query("SELECT * FROM invites WHERE status = \'pending\'");',
    '  for (const row of rows) {',
    `    const res = await pool.query(${update}, [row.id]);`,
    '    if (res.rowCount === 0) continue;',
    '    await mailInvite(row);',
    '  }',
    '}',
  );

/** Pending coupons read with Prisma, each redeemed by `where` / `data`, with `checked` deciding. */
const coupons = (where: string, data: string, checked: boolean) =>
  lines(
    'export async function grantCoupons(prisma) {',
    "  const due = await prisma.coupon.findMany({ where: { status: 'issued' } });",
    '  for (const coupon of due) {',
    `    const { count } = await prisma.coupon.updateMany({ where: ${where}, data: ${data} });`,
    checked ? '    if (count === 0) continue;' : '',
    '    await credit(coupon.userId, coupon.amount);',
    '  }',
    '}',
  );

ruleTester.run('require-atomic-claim (marks in filters)', rule, {
  valid: [
    // ---- retention: rows whose done stamp is older than a cutoff, deleted
    retention('{ startedAt: { [Op.lt]: cutoff } }'),
    retention('{ finishedAt: { [Op.lte]: cutoff } }'),
    // knex, raw column string and operator, on a queue-like table
    lines(
      'export async function purgeJobs(knex, cutoff) {',
      "  const old = await knex('jobs').where('completed_at', '<', cutoff).select('id');",
      "  for (const job of old) await knex('jobs').where({ id: job.id }).del();",
      '}',
    ),
    // raw SQL
    lines(
      'export async function purgeSent(pool, cutoff) {',
      '  const { rows } = await pool.query("SELECT id FROM notifications WHERE sent_at < $1", [cutoff]);',
      '  for (const row of rows) await pool.query("DELETE FROM notifications WHERE id = $1", [row.id]);',
      '}',
    ),
    // Drizzle `lt(column, cutoff)`
    lines(
      DRIZZLE,
      'export async function purgeDeliveries(cutoff) {',
      '  const old = await db.select({ id: schema.deliveries.id }).from(schema.deliveries).where(lt(schema.deliveries.deliveredAt, cutoff));',
      '  for (const row of old) await db.delete(schema.deliveries).where(eq(schema.deliveries.id, row.id));',
      '}',
    ),
    // ---- rows the caller named by key
    linked('eq(schema.tasks.id, link.taskId)'),
    linked('and(eq(schema.tasks.id, link.taskId), eq(schema.tasks.projectId, link.projectId))'),
    lines(
      DRIZZLE,
      "import { taskTable } from './schema';",
      'export async function bulkMove(taskIds, value) {',
      '  const tasks = await db.select({ id: taskTable.id }).from(taskTable).where(inArray(taskTable.id, taskIds));',
      '  for (const task of tasks) {',
      '    await audit(task.id, value);',
      '    await db.update(taskTable).set({ columnId: value, movedAt: new Date() }).where(eq(taskTable.id, task.id));',
      '  }',
      '}',
    ),
    lines(
      'export async function retryTasks(prisma, ids) {',
      '  const tasks = await prisma.task.findMany({ where: { id: { in: ids } } });',
      '  for (const task of tasks) {',
      '    await enqueue(task);',
      '    await prisma.task.update({ where: { id: task.id }, data: { retriedAt: new Date() } });',
      '  }',
      '}',
    ),
    lines(
      'export async function cancelTasks(sql, ids) {',
      '  const rows = await sql`SELECT * FROM tasks WHERE id IN ${sql(ids)}`;',
      '  for (const row of rows) {',
      '    await notifyOwner(row);',
      '    await sql`UPDATE tasks SET cancelled_at = now() WHERE id = ${row.id}`;',
      '  }',
      '}',
    ),
    // ---- the update re-checks the column it writes, and its row count decides
    invites("'UPDATE invites SET used_at = now() WHERE id = $1 AND used_at IS NULL'"),
    coupons('{ id: coupon.id, redeemedAt: null }', '{ redeemedAt: new Date() }', true),
    lines(
      'export async function fireReminders(knex) {',
      "  const due = await knex('reminders').where({ status: 'pending' });",
      '  for (const reminder of due) {',
      "    const changed = await knex('reminders').where({ id: reminder.id }).whereNull('fired_at').update({ fired_at: new Date() });",
      '    if (changed === 0) continue;',
      '    await fire(reminder);',
      '  }',
      '}',
    ),
    lines(
      DRIZZLE,
      'export async function redeemCodes() {',
      "  const codes = await db.select().from(schema.codes).where(eq(schema.codes.state, 'issued'));",
      '  for (const code of codes) {',
      '    const taken = await db.update(schema.codes).set({ usedAt: new Date() }).where(and(eq(schema.codes.id, code.id), isNull(schema.codes.usedAt))).returning();',
      '    if (taken.length === 0) continue;',
      '    await grant(code);',
      '  }',
      '}',
    ),
  ],
  invalid: [
    // ---- a due time (not a done stamp), a lease run out, or a state beside the cutoff: pending work
    claim(retention("{ status: 'failed', finishedAt: { [Op.lt]: cutoff } }"), 'findAll', 'status', 'db.ImportRunEvent.destroy('),
    claim(
      lines(
        'export async function runDue(knex) {',
        "  const due = await knex('jobs').where('run_at', '<=', new Date());",
        '  for (const job of due) {',
        '    await execute(job);',
        "    await knex('jobs').where({ id: job.id }).del();",
        '  }',
        '}',
      ),
      'where',
      'status',
      "knex('jobs').where(",
    ),
    claim(
      lines(
        'export async function reclaim(pool, stale) {',
        '  const { rows } = await pool.query("SELECT * FROM runs WHERE locked_at < $1", [stale]);',
        '  for (const row of rows) {',
        '    await execute(row);',
        '    await pool.query("UPDATE runs SET locked_at = now() WHERE id = $1", [row.id]);',
        '  }',
        '}',
      ),
      'SELECT',
      'locked_at',
      'pool.query(',
    ),
    // ---- a read that names no key: the task by its state, tasks by their project
    claim(linked("eq(schema.tasks.state, 'open')"), 'findFirst', 'state', 'db.update('),
    claim(
      lines(
        'export async function cancelTasks(sql, projectIds) {',
        '  const rows = await sql`SELECT * FROM tasks WHERE project_id IN ${sql(projectIds)}`;',
        '  for (const row of rows) {',
        '    await notifyOwner(row);',
        '    await sql`UPDATE tasks SET cancelled_at = now() WHERE id = ${row.id}`;',
        '  }',
        '}',
      ),
      'SELECT',
      'status',
      'sql`UPDATE tasks SET cancelled_at = now(',
    ),
    // ---- the update re-checks nothing it writes, or its count is not looked at
    claim(invites("'UPDATE invites SET used_at = now() WHERE id = $1'"), 'SELECT', 'status', "'UPDATE invites SET used_at"),
    claim(
      invites("'UPDATE invites SET used_at = now() WHERE id = $1 AND opened_at IS NULL'"),
      'SELECT',
      'status',
      "'UPDATE invites SET used_at",
    ),
    claim(
      coupons('{ id: coupon.id, redeemedAt: null }', '{ redeemedAt: new Date() }', false),
      'findMany',
      'status',
      'prisma.coupon.updateMany(',
    ),
    claim(coupons('{ id: coupon.id }', '{ redeemedAt: new Date() }', true), 'findMany', 'status', 'prisma.coupon.updateMany('),
  ],
});

/** A worker declared as `declaration`'s function, then `use` at the bottom of the file. */
const handed = (declaration: 'function' | 'const', use: string) =>
  lines(
    "import { runExclusive } from 'replica-guard';",
    declaration === 'function' ? 'export async function sweep(db) {' : 'export const sweep = async (db) => {',
    "  const jobs = await db.job.findMany({ where: { status: 'PENDING' } });",
    '  for (const job of jobs) {',
    '    await send(job);',
    "    await db.job.update({ where: { id: job.id }, data: { status: 'DONE' } });",
    '  }',
    declaration === 'function' ? '}' : '};',
    use,
  );

ruleTester.run('require-atomic-claim (a worker handed by name to a lock)', rule, {
  valid: [handed('function', "runExclusive('sweep', 60_000, sweep);"), handed('const', "runExclusive('sweep', 60_000, sweep);")],
  invalid: [
    // handed to a call that takes no lock, or only mentioned
    claim(handed('function', 'setInterval(sweep, 60_000);'), 'findMany', 'status', 'db.job.update('),
    claim(handed('const', "runExclusive('sweep', 60_000, () => log(sweep));"), 'findMany', 'status', 'db.job.update('),
  ],
});

/** A Sequelize model's static find-or-create through `this`, with `absent` run when no row is found. */
const findOrCreateOnThis = (absent: string) =>
  lines(
    'export class Application extends Model {',
    '  static async record(hostId, status) {',
    '    let application = await this.findOne({ where: { hostId, status } });',
    '    if (application) {',
    '      await application.update({ touchedAt: new Date() });',
    '    } else {',
    `      ${absent}`,
    '    }',
    '    return application;',
    '  }',
    '}',
  );

ruleTester.run('require-atomic-claim (find-or-create through this)', rule, {
  valid: [findOrCreateOnThis('application = await this.create({ hostId, status });')],
  invalid: [
    // nothing created when absent: the row found by its state is marked
    claim(findOrCreateOnThis("log('none');"), 'findOne', 'status', 'application.update('),
    // a row of another model created
    claim(findOrCreateOnThis('await Activity.create({ hostId, status });'), 'findOne', 'status', 'application.update('),
  ],
});
