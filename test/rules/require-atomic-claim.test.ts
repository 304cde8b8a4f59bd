import { expect, test } from 'vitest';
import { Linter } from 'eslint';
import tsParser from '@typescript-eslint/parser';
import { jsRuleTester, ruleTester } from './rule-tester.js';
import { requireAtomicClaim, type RequireAtomicClaimFacts, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';
import type { Finding } from '../../rules/utils/create-rule.js';

const lines = (...l: string[]) => l.join('\n');

// @typescript-eslint/rule-tester carries its own copy of @typescript-eslint/utils; the rule is the same object.
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

/** Exact location of `needle` (the first occurrence at or after `after`, when given). */
function at(code: string, needle: string, after?: string): { line: number; column: number; endLine: number; endColumn: number } {
  const from = after === undefined ? 0 : code.indexOf(after);
  const index = code.indexOf(needle, from);
  if (from === -1 || index === -1) throw new Error(`${needle} not in test code`);
  const before = code.slice(0, index);
  const line = before.split('\n').length;
  const column = index - before.lastIndexOf('\n');
  return { line, column, endLine: line, endColumn: column + needle.length };
}

/**
 * A report on the read: `needle` is the SELECT keyword or the read method's name. With `mark`, the
 * report spans to the end of the first `mark` after the read (the write marking the rows, on one
 * line), and its message names that line.
 */
function claim(code: string, needle: string, column = 'status', after?: string, mark?: string) {
  const start = at(code, needle, after);
  if (mark === undefined) return { code, errors: [{ messageId: 'nonAtomicClaim' as const, data: { column, markedAt: '' }, ...start }] };
  const read = code.indexOf(needle, after === undefined ? 0 : code.indexOf(after));
  const end = at(code.slice(read), mark);
  const endLine = start.line + end.line - 1;
  const endColumn = end.line === 1 ? start.column + end.endColumn - 1 : end.endColumn;
  const markedAt = ` (at line ${endLine}, where this report ends)`;
  return { code, errors: [{ messageId: 'nonAtomicClaim' as const, data: { column, markedAt }, ...start, endLine, endColumn }] };
}

/** Wraps a worker body in an async function. */
const worker = (...body: string[]) => lines('export async function relay() {', ...body.map((l) => `  ${l}`), '}');

/** A checked conditional transition of the row (`job`), in a loop body. */
const PG_CLAIM = [
  "  const { rowCount } = await pool.query(\"UPDATE jobs SET status = 'running' WHERE id = $1 AND status = 'pending'\", [job.id]);",
  '  if (rowCount === 0) continue;',
];

/** The same transition with its row count thrown away. */
const PG_UNCHECKED = "  await pool.query(\"UPDATE jobs SET status = 'running' WHERE id = $1 AND status = 'pending'\", [job.id]);";

const PG_READ = 'const { rows } = await pool.query("SELECT * FROM jobs WHERE status = \'pending\' LIMIT 10");';

ruleTester.run('require-atomic-claim', rule, {
  valid: [
    // application corpus: a one-shot data migration runs once per deploy, from the migrate entrypoint
    {
      code: worker(
        "const jobs = await knex('jobs').where({ status: 'pending' }).limit(10);",
        'for (const job of jobs) {',
        '  await send(job);',
        "  await knex('jobs').where({ id: job.id }).update({ status: 'done' });",
        '}',
      ),
      filename: 'migrations/20240101_backfill.js',
    },
    // application corpus: the row lock is an options object passed by name
    worker(
      'const options = { transacting, forUpdate: true };',
      "const invite = await models.Invite.findOne({ token, status: 'sent' }, options);",
      'await invite.destroy(options);',
    ),
    // the read claims the rows
    worker(
      'const { rows } = await client.query("SELECT * FROM jobs WHERE status = \'pending\' ORDER BY id LIMIT 10 FOR UPDATE SKIP LOCKED");',
      'for (const job of rows) {',
      '  await send(job);',
      '  await client.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [job.id]);',
      '}',
    ),
    worker(
      "const { rows } = await client.query('SELECT * FROM outbox FOR NO KEY UPDATE SKIP LOCKED');",
      "for (const row of rows) await client.query('DELETE FROM outbox WHERE id = $1', [row.id]);",
    ),
    // a claim in one statement, or claimRows
    worker(
      "const { rows } = await pool.query(\"UPDATE jobs SET status = 'running' WHERE id IN (SELECT id FROM jobs WHERE status = 'pending' LIMIT 10 FOR UPDATE SKIP LOCKED) RETURNING *\");",
      'for (const job of rows) {',
      '  await send(job);',
      '  await pool.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [job.id]);',
      '}',
    ),
    lines(
      "import { claimRows } from 'replica-guard';",
      worker(
        "const jobs = await claimRows(pool, { table: 'jobs', limit: 10, where: { status: 'pending' }, set: { status: 'running' } });",
        'for (const job of jobs) await send(job);',
      ),
    ),
    // a conditional transition whose row count decides
    worker(PG_READ, 'for (const job of rows) {', ...PG_CLAIM, '  await send(job);', '}'),
    worker(
      PG_READ,
      'for (const job of rows) {',
      "  if ((await pool.query(\"UPDATE jobs SET status = 'running' WHERE id = $1 AND status = 'pending'\", [job.id])).rowCount !== 1) continue;",
      '  await send(job);',
      '}',
    ),
    worker(
      "const jobs = await prisma.job.findMany({ where: { status: 'PENDING' }, take: 10 });",
      'for (const job of jobs) {',
      "  const { count } = await prisma.job.updateMany({ where: { id: job.id, status: 'PENDING' }, data: { status: 'RUNNING' } });",
      '  if (count === 0) continue;',
      '  await send(job);',
      '}',
    ),
    worker(
      "const jobs = await repo.find({ where: { status: 'pending' } });",
      'for (const job of jobs) {',
      "  const result = await repo.update({ id: job.id, status: 'pending' }, { status: 'running' });",
      '  if (result.affected !== 1) continue;',
      '  await send(job);',
      '}',
    ),
    worker(
      "const jobs = await knex('jobs').where({ status: 'pending' });",
      'for (const job of jobs) {',
      "  const changed = await knex('jobs').where({ id: job.id, status: 'pending' }).update({ status: 'running' });",
      '  if (!changed) continue;',
      '  await send(job);',
      '}',
    ),
    // locks in query builders and ORMs
    worker(
      "const jobs = await knex('jobs').where({ status: 'pending' }).forUpdate().skipLocked();",
      "for (const job of jobs) await knex('jobs').where({ id: job.id }).update({ status: 'done' });",
    ),
    worker(
      "const jobs = await db.selectFrom('jobs').selectAll().where('status', '=', 'pending').forUpdate().skipLocked().execute();",
      "for (const job of jobs) await db.updateTable('jobs').set({ status: 'done' }).where('id', '=', job.id).execute();",
    ),
    worker(
      "const jobs = await db.select().from(jobs).where(eq(jobs.status, 'pending')).for('update', { skipLocked: true });",
      "for (const job of jobs) await db.update(jobs).set({ status: 'done' }).where(eq(jobs.id, job.id));",
    ),
    worker(
      "const jobs = await repo.find({ where: { status: 'pending' }, lock: { mode: 'pessimistic_write', onLocked: 'skip_locked' } });",
      "for (const job of jobs) await repo.update(job.id, { status: 'done' });",
    ),
    worker(
      "const jobs = await Job.findAll({ where: { status: 'pending' }, lock: true, skipLocked: true, transaction: t });",
      "for (const job of jobs) await job.update({ status: 'done' });",
    ),
    lines(
      "import postgres from 'postgres';",
      'const sql = postgres();',
      'await sql.begin(async (sql) => {',
      "  const jobs = await sql`SELECT * FROM jobs WHERE status = 'pending' LIMIT 5 FOR UPDATE SKIP LOCKED`;",
      "  for (const job of jobs) await sql`UPDATE jobs SET status = 'done' WHERE id = ${job.id}`;",
      '});',
    ),
    // not pending rows: no status filter, not a queue table
    worker(
      "const { rows } = await pool.query('SELECT * FROM users WHERE id = $1', [id]);",
      "for (const user of rows) await pool.query('UPDATE users SET seen = now() WHERE id = $1', [user.id]);",
    ),
    // "status" only in a comment or a string inside the SQL
    worker(
      'const { rows } = await pool.query("SELECT * FROM users -- WHERE status = \'pending\'");',
      "for (const u of rows) await pool.query('UPDATE users SET x = 1 WHERE id = $1', [u.id]);",
    ),
    worker(
      'const { rows } = await pool.query("SELECT * FROM users WHERE name = \'status\'");',
      "for (const u of rows) await pool.query('UPDATE users SET x = 1 WHERE id = $1', [u.id]);",
    ),
    // pending rows read but never updated (a report, a metric)
    worker('const { rows } = await pool.query("SELECT count(*) AS n FROM jobs WHERE status = \'pending\'");', 'metrics.gauge(rows[0].n);'),
    worker(PG_READ, 'for (const job of rows) logger.info({ job }, "pending");'),
    // the loop updates something other than the row
    worker(PG_READ, 'for (const job of rows) {', '  await pool.query("UPDATE stats SET seen = seen + 1");', '}'),
    // Array.prototype.find with a callback is not a query
    worker("const pending = items.find((item) => item.status === 'pending');", 'if (pending) await repo.save(pending);'),
    worker("const pending = items.filter((item) => item.status === 'pending');", 'for (const item of pending) await repo.save(item);'),
    // odd shapes that must not crash the rule
    worker(
      'const { rows } = await pool.query(...args);',
      'for (const r of rows) await pool.query(UPDATE, [r.id]);',
      'await pool.query(); await sql``;',
      'for (const x of await repo.find()) await x.save();',
      'items.forEach();',
    ),
    worker(
      'const jobs = await prisma[model].findMany({ where: { [key]: 1 } });',
      'for (const j of jobs) await prisma[model].update({ where: { id: j.id } });',
    ),
    // unparsable SQL is skipped silently
    worker(
      'const { rows } = await pool.query("SELECT * FROM jobs WHERE status = \'pending");',
      "for (const job of rows) await pool.query('UPDATE jobs SET x = 1 WHERE id = $1', [job.id]);",
    ),
  ],
  invalid: [
    // the only status-like name is a qualified column in a string: the pre-check reads the whole name around the word
    claim(
      worker(
        "const rows = await knex('mail').where('mail.deliveredAt', null);",
        'for (const row of rows) {',
        '  await send(row);',
        "  await knex('mail').where({ id: row.id }).update({ delivery: new Date() });",
        '}',
      ),
      'where',
      'mail.deliveredAt',
      undefined,
      "knex('mail').where({ id: row.id }).update({ delivery: new Date() })",
    ),
    // raw pg
    claim(
      worker(
        PG_READ,
        'for (const job of rows) {',
        '  await send(job);',
        '  await pool.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [job.id]);',
        '}',
      ),
      'SELECT',
      'status',
      undefined,
      'pool.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [job.id])',
    ),
    claim(
      worker(
        'const result = await pool.query("SELECT * FROM jobs WHERE status = \'pending\'");',
        'for (const job of result.rows) {',
        '  await pool.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [job.id]);',
        '}',
      ),
      'SELECT',
      'status',
      undefined,
      'pool.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [job.id])',
    ),
    claim(
      worker(
        "const { rows } = await pool.query('SELECT id, payload FROM outbox ORDER BY id LIMIT 100');",
        'for (const row of rows) {',
        '  await publish(row);',
        "  await pool.query('DELETE FROM outbox WHERE id = $1', [row.id]);",
        '}',
      ),
      'SELECT',
      'status',
      undefined,
      "pool.query('DELETE FROM outbox WHERE id = $1', [row.id])",
    ),
    claim(
      worker(
        "const { rows } = await db.query('SELECT * FROM invoices WHERE processed_at IS NULL');",
        'for (const inv of rows) {',
        '  await charge(inv);',
        "  await db.query('UPDATE invoices SET processed_at = now() WHERE id = $1', [inv.id]);",
        '}',
      ),
      'SELECT',
      'processed_at',
      undefined,
      "db.query('UPDATE invoices SET processed_at = now() WHERE id = $1', [inv.id])",
    ),
    claim(
      worker(
        'const { rows } = await db.query(\'SELECT * FROM reminders WHERE "sentAt" IS NULL\');',
        'for (const r of rows) {',
        '  await mail(r);',
        '  await db.query(\'UPDATE reminders SET "sentAt" = now() WHERE id = $1\', [r.id]);',
        '}',
      ),
      'SELECT',
      'sentAt',
      undefined,
      'db.query(\'UPDATE reminders SET "sentAt" = now() WHERE id = $1\', [r.id])',
    ),
    // a conditional transition whose row count is ignored is not a claim
    claim(
      worker(PG_READ, 'for (const job of rows) {', PG_UNCHECKED, '  await send(job);', '}'),
      'SELECT',
      'status',
      undefined,
      "pool.query(\"UPDATE jobs SET status = 'running' WHERE id = $1 AND status = 'pending'\", [job.id])",
    ),
    claim(
      worker(
        PG_READ,
        'for (const job of rows) {',
        "  const unused = await pool.query(\"UPDATE jobs SET status = 'running' WHERE id = $1 AND status = 'pending'\", [job.id]);",
        '  await send(job);',
        '}',
      ),
      'SELECT',
      'status',
      undefined,
      "unused = await pool.query(\"UPDATE jobs SET status = 'running' WHERE id = $1 AND status = 'pending'\", [job.id])",
    ),
    // template literals, config objects, constants by name
    claim(
      worker(
        'const { rows } = await pool.query(`SELECT * FROM jobs WHERE status = ${PENDING}`);',
        'for (const job of rows) await pool.query(`UPDATE jobs SET status = ${DONE} WHERE id = ${job.id}`);',
      ),
      'SELECT',
      'status',
      undefined,
      'for (const job of rows) await pool.query(`UPDATE jobs SET status = ${DONE} WHERE id = ${job.id}`)',
    ),
    claim(
      worker(
        "const { rows } = await pool.query({ text: 'SELECT * FROM jobs WHERE state = $1', values: ['new'] });",
        "for (const job of rows) await pool.query({ text: 'UPDATE jobs SET state = $1 WHERE id = $2', values: ['done', job.id] });",
      ),
      'SELECT',
      'state',
      undefined,
      "for (const job of rows) await pool.query({ text: 'UPDATE jobs SET state = $1 WHERE id = $2', values: ['done', job.id] })",
    ),
    claim(
      lines(
        'const PENDING_JOBS = "SELECT * FROM jobs WHERE status = \'pending\' LIMIT 50";',
        'const MARK_DONE = "UPDATE jobs SET status = \'done\' WHERE id = $1";',
        worker(
          'const { rows } = await pool.query(PENDING_JOBS);',
          'for (const job of rows) {',
          '  await send(job);',
          '  await pool.query(MARK_DONE, [job.id]);',
          '}',
        ),
      ),
      'SELECT',
      'status',
      undefined,
      'pool.query(MARK_DONE, [job.id])',
    ),
    // forEach, map, destructured rows, the read inside the loop header, a single row
    claim(
      worker(
        PG_READ,
        'rows.forEach(async (job) => {',
        '  await send(job);',
        '  await pool.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [job.id]);',
        '});',
      ),
      'SELECT',
      'status',
      undefined,
      'pool.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [job.id])',
    ),
    claim(
      worker(
        PG_READ,
        'await Promise.all(rows.map(async (job) => {',
        '  await send(job);',
        '  await pool.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [job.id]);',
        '}));',
      ),
      'SELECT',
      'status',
      undefined,
      'pool.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [job.id])',
    ),
    claim(
      worker(
        PG_READ,
        'for (const { id, email } of rows) {',
        '  await mail(email);',
        '  await pool.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [id]);',
        '}',
      ),
      'SELECT',
      'status',
      undefined,
      'pool.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [id])',
    ),
    claim(
      worker(
        'for (const job of (await pool.query("SELECT * FROM jobs WHERE status = \'pending\'")).rows) {',
        '  await pool.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [job.id]);',
        '}',
      ),
      'SELECT',
      'status',
      undefined,
      'pool.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [job.id])',
    ),
    claim(
      worker(
        'const { rows: [job] } = await pool.query("SELECT * FROM jobs WHERE status = \'pending\' LIMIT 1");',
        'if (!job) return;',
        'await send(job);',
        'await pool.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [job.id]);',
      ),
      'SELECT',
      'status',
      undefined,
      'pool.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [job.id])',
    ),
    // FOR SHARE does not stop a second worker from taking the same rows
    claim(
      worker(
        'const { rows } = await pool.query("SELECT * FROM jobs WHERE status = \'pending\' FOR SHARE");',
        'for (const job of rows) await pool.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [job.id]);',
      ),
      'SELECT',
      'status',
      undefined,
      'for (const job of rows) await pool.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [job.id])',
    ),
    claim(
      worker(
        "const { rows } = await pool.query('WITH due AS (SELECT id FROM outbox_messages) SELECT * FROM due');",
        "for (const m of rows) await pool.query('DELETE FROM outbox_messages WHERE id = $1', [m.id]);",
      ),
      'WITH',
      'status',
      undefined,
      "for (const m of rows) await pool.query('DELETE FROM outbox_messages WHERE id = $1', [m.id])",
    ),
    // a class worker
    claim(
      lines(
        'class Relay {',
        '  async tick() {',
        '    const { rows } = await this.db.query("SELECT * FROM jobs WHERE status = \'pending\'");',
        '    for (const job of rows) {',
        "      if (job.kind === 'mail') {",
        '        await this.db.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [job.id]);',
        '      }',
        '    }',
        '  }',
        '}',
      ),
      'SELECT',
      'status',
      undefined,
      'this.db.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [job.id])',
    ),
    // knex
    claim(
      worker(
        "const jobs = await knex('jobs').where({ status: 'pending' }).limit(10);",
        'for (const job of jobs) {',
        '  await send(job);',
        "  await knex('jobs').where({ id: job.id }).update({ status: 'done' });",
        '}',
      ),
      'where',
      'status',
      undefined,
      "knex('jobs').where({ id: job.id }).update({ status: 'done' })",
    ),
    claim(
      worker(
        "const rows = await knex('outbox').select('*').orderBy('id');",
        "for (const row of rows) await knex('outbox').where('id', row.id).del();",
      ),
      'select',
      'status',
      undefined,
      "for (const row of rows) await knex('outbox').where('id', row.id).del()",
    ),
    claim(
      worker(
        "const rows = await knex('invoices').whereNull('processed_at');",
        "for (const row of rows) await knex('invoices').where({ id: row.id }).update({ processed_at: knex.fn.now() });",
      ),
      'whereNull',
      'processed_at',
      undefined,
      "for (const row of rows) await knex('invoices').where({ id: row.id }).update({ processed_at: knex.fn.now() })",
    ),
    claim(
      worker(
        'const { rows } = await knex.raw("SELECT * FROM jobs WHERE status = \'pending\'");',
        'for (const job of rows) await knex.raw("UPDATE jobs SET status = \'done\' WHERE id = ?", [job.id]);',
      ),
      'SELECT',
      'status',
      undefined,
      'for (const job of rows) await knex.raw("UPDATE jobs SET status = \'done\' WHERE id = ?", [job.id])',
    ),
    // Prisma
    claim(
      worker(
        "const jobs = await prisma.job.findMany({ where: { status: 'PENDING' }, take: 10 });",
        'for (const job of jobs) {',
        '  await send(job);',
        "  await prisma.job.update({ where: { id: job.id }, data: { status: 'DONE' } });",
        '}',
      ),
      'findMany',
      'status',
      undefined,
      "prisma.job.update({ where: { id: job.id }, data: { status: 'DONE' } })",
    ),
    claim(
      worker(
        'const events = await prisma.outboxEvent.findMany({ take: 100, orderBy: { id: "asc" } });',
        'for (const event of events) {',
        '  await publish(event);',
        '  await prisma.outboxEvent.delete({ where: { id: event.id } });',
        '}',
      ),
      'findMany',
      'status',
      undefined,
      'prisma.outboxEvent.delete({ where: { id: event.id } })',
    ),
    claim(
      worker(
        "const jobs = await prisma.job.findMany({ where: { status: 'PENDING' } });",
        "for (const job of jobs) await prisma.job.updateMany({ where: { id: job.id, status: 'PENDING' }, data: { status: 'DONE' } });",
      ),
      'findMany',
      'status',
      undefined,
      "for (const job of jobs) await prisma.job.updateMany({ where: { id: job.id, status: 'PENDING' }, data: { status: 'DONE' } })",
    ),
    claim(
      worker(
        "const jobs = await prisma.$queryRaw`SELECT * FROM jobs WHERE status = 'pending'`;",
        "for (const job of jobs) await prisma.$executeRaw`UPDATE jobs SET status = 'done' WHERE id = ${job.id}`;",
      ),
      'SELECT',
      'status',
      undefined,
      "for (const job of jobs) await prisma.$executeRaw`UPDATE jobs SET status = 'done' WHERE id = ${job.id}`",
    ),
    claim(
      worker(
        "const job = await prisma.job.findFirst({ where: { status: 'PENDING' } });",
        'if (!job) return;',
        'await send(job);',
        "await prisma.job.update({ where: { id: job.id }, data: { status: 'DONE' } });",
      ),
      'findFirst',
      'status',
      undefined,
      "prisma.job.update({ where: { id: job.id }, data: { status: 'DONE' } })",
    ),
    // TypeORM
    claim(
      worker(
        "const jobs = await repo.find({ where: { status: 'pending' } });",
        'for (const job of jobs) {',
        '  await send(job);',
        "  await repo.update(job.id, { status: 'done' });",
        '}',
      ),
      'find',
      'status',
      undefined,
      "repo.update(job.id, { status: 'done' })",
    ),
    claim(
      lines(
        'class OutboxRelay {',
        '  async relay() {',
        '    const rows = await this.outboxRepository.find({ take: 50 });',
        '    for (const row of rows) {',
        '      await this.bus.publish(row);',
        '      row.publishedAt = new Date();',
        '      await this.outboxRepository.save(row);',
        '    }',
        '  }',
        '}',
      ),
      'find',
      'status',
      undefined,
      'this.outboxRepository.save(row)',
    ),
    claim(
      worker("const jobs = await jobRepository.findBy({ status: 'pending' });", 'for (const job of jobs) await jobRepository.remove(job);'),
      'findBy',
      'status',
      undefined,
      'for (const job of jobs) await jobRepository.remove(job)',
    ),
    claim(
      worker(
        'const rows = await dataSource.query("SELECT * FROM jobs WHERE status = \'pending\'");',
        'for (const job of rows) await dataSource.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [job.id]);',
      ),
      'SELECT',
      'status',
      undefined,
      'for (const job of rows) await dataSource.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [job.id])',
    ),
    // Sequelize
    claim(
      worker(
        "const jobs = await Job.findAll({ where: { status: 'pending' } });",
        'for (const job of jobs) {',
        '  await send(job);',
        "  await job.update({ status: 'done' });",
        '}',
      ),
      'findAll',
      'status',
      undefined,
      "job.update({ status: 'done' })",
    ),
    claim(
      worker(
        "const jobs = await Job.findAll({ where: { status: 'pending' } });",
        "for (const job of jobs) { job.status = 'done'; await job.save(); }",
      ),
      'findAll',
      'status',
      undefined,
      "for (const job of jobs) { job.status = 'done'; await job.save()",
    ),
    // Drizzle and Kysely
    claim(
      worker(
        "const rows = await db.select().from(jobs).where(eq(jobs.status, 'pending'));",
        "for (const job of rows) await db.update(jobs).set({ status: 'done' }).where(eq(jobs.id, job.id));",
      ),
      'select',
      'status',
      undefined,
      "for (const job of rows) await db.update(jobs).set({ status: 'done' }).where(eq(jobs.id, job.id))",
    ),
    claim(
      worker(
        "const rows = await db.selectFrom('jobs').selectAll().where('status', '=', 'pending').execute();",
        "for (const job of rows) await db.updateTable('jobs').set({ status: 'done' }).where('id', '=', job.id).execute();",
      ),
      'selectFrom',
      'status',
      undefined,
      "for (const job of rows) await db.updateTable('jobs').set({ status: 'done' }).where('id', '=', job.id).execute()",
    ),
    // postgres.js
    claim(
      lines(
        "import postgres from 'postgres';",
        'const sql = postgres();',
        worker(
          "const jobs = await sql`SELECT * FROM jobs WHERE status = 'pending' LIMIT 10`;",
          "for (const job of jobs) await sql`UPDATE jobs SET status = 'done' WHERE id = ${job.id}`;",
        ),
      ),
      'SELECT',
      'status',
      undefined,
      "for (const job of jobs) await sql`UPDATE jobs SET status = 'done' WHERE id = ${job.id}`",
    ),
    // options: extra status columns and queue tables
    {
      ...claim(
        worker(
          "const { rows } = await pool.query('SELECT * FROM mailings WHERE phase_two IS NULL');",
          "for (const m of rows) await pool.query('UPDATE mailings SET phase_two = now() WHERE id = $1', [m.id]);",
        ),
        'SELECT',
        'phase_two',
        undefined,
        "pool.query('UPDATE mailings SET phase_two = now() WHERE id = $1', [m.id])",
      ),
      options: [{ statusColumns: ['phase_two'] }],
    },
    {
      ...claim(
        worker(
          "const { rows } = await pool.query('SELECT * FROM mailings ORDER BY id');",
          "for (const m of rows) await pool.query('DELETE FROM mailings WHERE id = $1', [m.id]);",
        ),
        'SELECT',
        'status',
        undefined,
        "pool.query('DELETE FROM mailings WHERE id = $1', [m.id])",
      ),
      options: [{ queueTables: ['mailings'] }],
    },
    // module level
    claim(
      lines(PG_READ, 'for (const job of rows) await pool.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [job.id]);'),
      'SELECT',
      'status',
      undefined,
      'for (const job of rows) await pool.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [job.id])',
    ),
  ],
});

// What looks like a claim but is not one, and the near misses that still are.
const PRISMA_READ = "const jobs = await prisma.job.findMany({ where: { status: 'PENDING' } });";
const PRISMA_DONE = "await prisma.job.update({ where: { id: job.id }, data: { status: 'DONE' } });";
const fn = (signature: string, ...body: string[]) => lines(`export async function ${signature} {`, ...body.map((l) => `  ${l}`), '}');

ruleTester.run('require-atomic-claim: not a claim', rule, {
  valid: [
    // find-or-create: one row looked up; the same table gets a create when it is absent
    fn(
      'recordFinding(db, projectId, key, values)',
      "const stale = await db.finding.findFirst({ where: { projectId, key, state: 'closed' } });",
      'if (stale) {',
      "  return db.finding.update({ where: { id: stale.id }, data: { ...values, state: 'open' } });",
      '}',
      "return db.finding.create({ data: { ...values, projectId, key, state: 'open' } });",
    ),
    fn(
      'restoreLabel(name)',
      "const { rows: [label] } = await pool.query('SELECT * FROM labels WHERE name = $1 AND state = $2', [name, 'archived']);",
      'if (label) await pool.query("UPDATE labels SET state = \'active\' WHERE id = $1", [label.id]);',
      "else await pool.query('INSERT INTO labels (name, state) VALUES ($1, $2)', [name, 'active']);",
    ),
    // a recomputed derived value: the same whichever replica writes last
    fn(
      'recalculateLimits(env)',
      'const queues = await prisma.taskQueue.findMany({ where: { environmentId: env.id } });',
      'for (const queue of queues) {',
      '  const limit = Math.floor(env.maxConcurrency * queue.share);',
      '  await prisma.taskQueue.update({ where: { id: queue.id }, data: { concurrencyLimit: limit } });',
      '}',
    ),
    // an idempotent read-and-append: the state copied from the row, a note computed from it
    fn(
      'confirmOutage(monitor)',
      'await knex.transaction(async (trx) => {',
      "  const rows = await trx('checks').where('monitor', monitor).whereNotNull('observed_status');",
      '  for (const row of rows) {',
      "    const note = row.note?.includes('confirmed') ? row.note : `${row.note ?? ''} confirmed`;",
      "    await trx('checks').where({ id: row.id }).update({ status: row.observed_status, note });",
      '  }',
      '});',
    ),
    // rows the caller owns: the read is scoped to the acting user
    fn(
      'cancelMyRuns(user, projectId)',
      "const runs = await prisma.run.findMany({ where: { projectId, userId: user.id, status: { in: ['queued', 'running'] } } });",
      'for (const run of runs) {',
      '  await runner.abort(run.id);',
      "  await prisma.run.update({ where: { id: run.id }, data: { status: 'cancelled' } });",
      '}',
    ),
    fn(
      'resumeCart(sessionId, customerId)',
      "const cart = await select().from('cart').where('customer_id', '=', customerId).andWhere('status', '=', 1).load(pool);",
      "if (cart) await update('cart').given({ session_id: sessionId, status: 1 }).where('uuid', '=', cart.uuid).execute(pool);",
    ),
    // a queue job's handler acting on the record its job names
    lines(
      "import { Processor, WorkerHost } from '@nestjs/bullmq';",
      "@Processor('exports')",
      'export class ExportProcessor extends WorkerHost {',
      '  async process(job) {',
      '    const { exportId } = job.data;',
      "    const task = await this.prisma.exportTask.findFirst({ where: { exportId, status: 'QUEUED' } });",
      '    if (!task) return;',
      "    await this.prisma.exportTask.update({ where: { id: task.id }, data: { status: 'RUNNING' } });",
      '  }',
      '}',
    ),
    lines(
      "import { Worker } from 'bullmq';",
      "new Worker('mail', async (job) => {",
      "  const mail = await prisma.mailTask.findFirst({ where: { id: job.data.mailId, state: 'pending' } });",
      "  if (mail) await prisma.mailTask.update({ where: { id: mail.id }, data: { state: 'sent' } });",
      '});',
    ),
    // a row named by its key is handed over by the caller, not picked
    fn(
      'runImport(taskId)',
      "const task = await db.selectFrom('import_tasks').selectAll().where('id', '=', taskId).executeTakeFirst();",
      'if (!task) return;',
      "await db.updateTable('import_tasks').set({ status: 'done' }).where('id', '=', task.id).execute();",
    ),
    fn(
      'runJob(id)',
      "const { rows: [job] } = await pool.query('SELECT * FROM jobs WHERE id = $1', [id]);",
      'await pool.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [job.id]);',
    ),
    // already guarded: a compare-and-set whose count decides, earlier in the function
    fn(
      'fire(schedule, next)',
      'const claimed = await prisma.schedule.updateMany({ where: { id: schedule.id, nextRunAt: schedule.nextRunAt }, data: { nextRunAt: next } });',
      'if (claimed.count === 0) return;',
      "const run = await prisma.scheduleRun.findFirst({ where: { scheduleId: schedule.id, status: 'planned' } });",
      "if (run) await prisma.scheduleRun.update({ where: { id: run.id }, data: { status: 'queued' } });",
    ),
    // … a compare-and-set on the row itself
    worker(
      PRISMA_READ,
      'for (const job of jobs) {',
      "  const { count } = await prisma.job.updateMany({ where: { id: job.id, version: job.version }, data: { status: 'RUNNING', version: { increment: 1 } } });",
      '  if (count === 0) continue;',
      '  await send(job);',
      '}',
    ),
    // … the same with Mongoose's version key
    worker(
      PRISMA_READ,
      'for (const job of jobs) {',
      "  const { count } = await prisma.job.updateMany({ where: { id: job.id, __v: job.__v }, data: { status: 'RUNNING', __v: { increment: 1 } } });",
      '  if (count === 0) continue;',
      '  await send(job);',
      '}',
    ),
    // … Prisma's one-row update throws when its re-checked state no longer matches
    worker(
      "const stuck = await prisma.action.findMany({ where: { status: 'executing' } });",
      'for (const action of stuck) {',
      "  await prisma.action.update({ where: { pk: action.pk, status: 'executing' }, data: { status: 'failed' } });",
      '}',
    ),
    // … each row claimed by a checked conditional transition, or a per-row guard, before it is marked
    worker(
      PG_READ,
      'for (const job of rows) {',
      ...PG_CLAIM,
      '  await send(job);',
      '  await pool.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [job.id]);',
      '}',
    ),
    lines(
      "import { claimOnce } from 'replica-guard';",
      worker(
        PRISMA_READ,
        'for (const job of jobs) {',
        '  if (!(await claimOnce(`job:${job.id}`, 60_000))) continue;',
        '  await send(job);',
        `  ${PRISMA_DONE}`,
        '}',
      ),
    ),
    // … a Redis SET NX, a transaction advisory lock, a replica-guard lease around the work
    worker(
      "if ((await redis.set('lock:sweep', token, 'PX', 30000, 'NX')) !== 'OK') return;",
      PRISMA_READ,
      `for (const job of jobs) ${PRISMA_DONE}`,
    ),
    worker(
      'await knex.transaction(async (trx) => {',
      "  await trx.raw('SELECT pg_advisory_xact_lock(?)', [SWEEP_LOCK]);",
      "  const rows = await trx('invoices').whereNull('processed_at');",
      "  for (const row of rows) await trx('invoices').where({ id: row.id }).update({ processed_at: trx.fn.now() });",
      '});',
    ),
    lines(
      "import { runExclusive } from 'replica-guard';",
      worker(
        "await runExclusive('sweep', 60_000, async () => {",
        "  const jobs = await prisma.job.findMany({ where: { status: 'PENDING' } });",
        "  for (const job of jobs) await prisma.job.update({ where: { id: job.id }, data: { status: 'DONE' } });",
        '});',
      ),
    ),
  ],
  invalid: [
    // a voucher redeemed twice: found unused by a status filter, marked used by its key
    claim(
      fn(
        'redeem(db, input)',
        "const voucher = await db.voucher.findFirst({ where: { code: input.code, status: 'UNUSED' } });",
        'if (!voucher) return null;',
        "await db.voucher.update({ where: { pk: voucher.pk }, data: { status: 'USED', usedAt: new Date() } });",
        'await db.ledger.create({ data: { ownerId: voucher.ownerId, amount: 10 } });',
      ),
      'findFirst',
      'status',
      undefined,
      "db.voucher.update({ where: { pk: voucher.pk }, data: { status: 'USED', usedAt: new Date() } })",
    ),
    // an invitation claimed twice (the invitee's id is written, not filtered on)
    claim(
      fn(
        'accept(inviteCode, inviteeId)',
        "const invite = await prisma.invitation.findFirst({ where: { inviteCode, state: 'OPEN' } });",
        'if (!invite || invite.inviterId === inviteeId) return false;',
        "await prisma.invitation.update({ where: { id: invite.id }, data: { state: 'ACCEPTED', inviteeId } });",
        'return true;',
      ),
      'findFirst',
      'state',
      undefined,
      "prisma.invitation.update({ where: { id: invite.id }, data: { state: 'ACCEPTED', inviteeId } })",
    ),
    // a computed value written into the state column is still a transition
    claim(
      worker(
        PRISMA_READ,
        'for (const job of jobs) {',
        '  const next = await run(job);',
        '  await prisma.job.update({ where: { id: job.id }, data: { status: next } });',
        '}',
      ),
      'findMany',
      'status',
      undefined,
      'prisma.job.update({ where: { id: job.id }, data: { status: next } })',
    ),
    // an owner key filtered on a constant is a shared queue, not the caller's own rows
    claim(
      worker(
        "const jobs = await prisma.job.findMany({ where: { userId: SYSTEM_USER, status: 'PENDING' } });",
        `for (const job of jobs) ${PRISMA_DONE}`,
      ),
      'findMany',
      'status',
      undefined,
      "for (const job of jobs) await prisma.job.update({ where: { id: job.id }, data: { status: 'DONE' } })",
    ),
    // a queue processor that picks every queued row, not the one its job names
    claim(
      lines(
        "import { Processor, WorkerHost } from '@nestjs/bullmq';",
        "@Processor('exports')",
        'export class ExportSweep extends WorkerHost {',
        '  async process(job) {',
        "    const tasks = await this.prisma.exportTask.findMany({ where: { status: 'QUEUED' }, take: job.data.batch });",
        "    for (const task of tasks) await this.prisma.exportTask.update({ where: { id: task.id }, data: { status: 'RUNNING' } });",
        '  }',
        '}',
      ),
      'findMany',
      'status',
      undefined,
      "for (const task of tasks) await this.prisma.exportTask.update({ where: { id: task.id }, data: { status: 'RUNNING' } })",
    ),
    // a `process(job)` method of a class no queue hands jobs to
    claim(
      lines(
        'export class Exporter {',
        '  async process(job) {',
        "    const task = await this.prisma.exportTask.findFirst({ where: { exportId: job.exportId, status: 'QUEUED' } });",
        "    if (task) await this.prisma.exportTask.update({ where: { id: task.id }, data: { status: 'RUNNING' } });",
        '  }',
        '}',
      ),
      'findFirst',
      'status',
      undefined,
      "if (task) await this.prisma.exportTask.update({ where: { id: task.id }, data: { status: 'RUNNING' } })",
    ),
    // paging by key through an outbox picks rows
    claim(
      fn(
        'relay(lastId)',
        "const rows = await knex('outbox').where('id', '>', lastId).orderBy('id');",
        "for (const row of rows) await knex('outbox').where('id', row.id).del();",
      ),
      'where',
      'status',
      undefined,
      "for (const row of rows) await knex('outbox').where('id', row.id).del()",
    ),
    // a conditional transition whose count is ignored claims nothing for the update after it
    claim(
      worker(
        PG_READ,
        'for (const job of rows) {',
        PG_UNCHECKED,
        '  await send(job);',
        '  await pool.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [job.id]);',
        '}',
      ),
      'SELECT',
      'status',
      undefined,
      "pool.query(\"UPDATE jobs SET status = 'running' WHERE id = $1 AND status = 'pending'\", [job.id])",
    ),
    // a per-row guard on another key does not claim the row
    claim(
      lines(
        "import { claimOnce } from 'replica-guard';",
        worker(
          PRISMA_READ,
          'for (const job of jobs) {',
          "  if (!(await claimOnce('digest', 60_000))) continue;",
          '  await send(job);',
          `  ${PRISMA_DONE}`,
          '}',
        ),
      ),
      'findMany',
      'status',
      undefined,
      "prisma.job.update({ where: { id: job.id }, data: { status: 'DONE' } })",
    ),
    // a lock taken after the read does not cover it
    claim(
      worker(
        PRISMA_READ,
        "if ((await redis.set('lock:sweep', token, 'PX', 30000, 'NX')) !== 'OK') return;",
        `for (const job of jobs) ${PRISMA_DONE}`,
      ),
      'findMany',
      'status',
      undefined,
      "for (const job of jobs) await prisma.job.update({ where: { id: job.id }, data: { status: 'DONE' } })",
    ),
    // a create into the same table that does not depend on what the read found: the next occurrence of a picked job
    claim(
      fn(
        'runNextDue()',
        "const job = await prisma.job.findFirst({ where: { status: 'DUE' }, orderBy: { runAt: 'asc' } });",
        'if (!job) return;',
        'await execute(job);',
        "await prisma.job.update({ where: { id: job.id }, data: { status: 'DONE' } });",
        "await prisma.job.create({ data: { kind: job.kind, runAt: nextRun(job), status: 'DUE' } });",
      ),
      'findFirst',
      'status',
      undefined,
      "prisma.job.update({ where: { id: job.id }, data: { status: 'DONE' } })",
    ),
    // … nor one made when the row was found
    claim(
      fn(
        'rollOver()',
        "const period = await prisma.billingPeriod.findFirst({ where: { state: 'OPEN' } });",
        'if (period) {',
        "  await prisma.billingPeriod.update({ where: { id: period.id }, data: { state: 'CLOSED' } });",
        "  await prisma.billingPeriod.create({ data: { state: 'OPEN', startsAt: period.endsAt } });",
        '}',
      ),
      'findFirst',
      'state',
      undefined,
      "prisma.billingPeriod.update({ where: { id: period.id }, data: { state: 'CLOSED' } })",
    ),
    // a create into another table is not find-or-create
    claim(
      fn(
        'promote(waitlistId)',
        "const entry = await prisma.waitlist.findFirst({ where: { listId: waitlistId, status: 'WAITING' }, orderBy: { createdAt: 'asc' } });",
        'if (!entry) return;',
        "await prisma.waitlist.update({ where: { id: entry.id }, data: { status: 'INVITED' } });",
        'await prisma.invitation.create({ data: { email: entry.email } });',
      ),
      'findFirst',
      'status',
      undefined,
      "prisma.waitlist.update({ where: { id: entry.id }, data: { status: 'INVITED' } })",
    ),
  ],
});

// Plain JavaScript (espree)
jsRuleTester.run('require-atomic-claim (JavaScript)', rule, {
  valid: [
    worker(
      'const { rows } = await pool.query("SELECT * FROM jobs WHERE status = \'pending\' FOR UPDATE SKIP LOCKED");',
      'for (const job of rows) await pool.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [job.id]);',
    ),
    worker(
      "const jobs = await knex('jobs').where({ status: 'pending' }).forUpdate().skipLocked();",
      "for (const job of jobs) await knex('jobs').where({ id: job.id }).update({ status: 'done' });",
    ),
  ],
  invalid: [
    claim(
      lines(
        "const { Pool } = require('pg');",
        'const pool = new Pool();',
        worker(PG_READ, 'for (const job of rows) await pool.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [job.id]);'),
      ),
      'SELECT',
      'status',
      undefined,
      'for (const job of rows) await pool.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [job.id])',
    ),
    claim(
      worker(PRISMA_READ, `for (const job of jobs) ${PRISMA_DONE}`),
      'findMany',
      'status',
      undefined,
      "for (const job of jobs) await prisma.job.update({ where: { id: job.id }, data: { status: 'DONE' } })",
    ),
    claim(
      worker(
        "const rows = await knex('outbox').select('id', 'payload');",
        "rows.forEach((row) => knex('outbox').where({ id: row.id }).del());",
      ),
      'select',
      'status',
      undefined,
      "rows.forEach((row) => knex('outbox').where({ id: row.id }).del()",
    ),
    claim(
      worker("const jobs = await Job.findAll({ where: { state: 'queued' } });", 'for (const job of jobs) await job.destroy();'),
      'findAll',
      'state',
      undefined,
      'for (const job of jobs) await job.destroy()',
    ),
  ],
});

test('facts name the read, the loop and the update', () => {
  const findings: Finding<RequireAtomicClaimMessageIds, RequireAtomicClaimFacts>[] = [];
  const probe = {
    ...requireAtomicClaim,
    create: (context: never) =>
      requireAtomicClaim.detect(Object.create(context, { options: { value: [{ statusColumns: [], queueTables: [] }] } }), (f) =>
        findings.push(f),
      ),
  };
  const linter = new Linter({ configType: 'flat' });
  const code = worker(
    PG_READ,
    'for (const job of rows) {',
    '  await pool.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [job.id]);',
    '}',
  );
  linter.verify(code, [
    { plugins: { rg: { rules: { probe } } } as never, rules: { 'rg/probe': 'error' }, languageOptions: { parser: tsParser as never } },
  ]);
  expect(findings).toHaveLength(1);
  const facts = findings[0]?.facts;
  expect(facts).toMatchObject({ readKind: 'sql', table: 'jobs', statusColumn: 'status' });
  expect(facts?.loop?.type).toBe('ForOfStatement');
  expect(facts && code.slice(...facts.update.range)).toBe('pool.query("UPDATE jobs SET status = \'done\' WHERE id = $1", [job.id])');
  expect(facts?.enclosingFunction?.type).toBe('FunctionDeclaration');
});
