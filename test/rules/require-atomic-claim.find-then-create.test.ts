// require-atomic-claim on the find-then-create claim: a run, lock or idempotency record looked up
// by what the work is and created when absent, to make the work happen once. Two replicas both
// find none and both create it. Not an ordinary find-or-create (a profile made on first use), a
// unique lookup, an upsert, an insert that ignores conflicts, a unique violation caught, a
// SERIALIZABLE transaction, a lookup that locks, or one run under a lock.
import { ruleTester } from './rule-tester.js';
import { reportAt } from './claim-report.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

const PRISMA = "import { PrismaClient } from '@prisma/client';\nconst prisma = new PrismaClient();";
const PG = "import { Pool } from 'pg';\nconst pool = new Pool();";

/** The report on the first `needle` in `code`, naming `table`. */
const claimed = (code: string, needle: string, table: string) => reportAt(code, needle, 'findThenCreateClaim' as const, { table });

/** A Prisma function looking up `model` by `filter`, then `body`. */
const onPrisma = (model: string, filter: string, ...body: string[]) =>
  lines(
    PRISMA,
    'export async function runDaily(jobId: string, period: string) {',
    `  const found = await prisma.${model}.findFirst({ where: ${filter} });`,
    ...body.map((l) => `  ${l}`),
    '}',
    'declare function sendDigest(): Promise<void>;',
  );

/** One in-flight run per job: looked up by a status filter and created when absent, in a READ COMMITTED transaction. */
const START_RUN = lines(
  'export async function start(jobId: number) {',
  '  return prisma.$transaction(async (tx) => {',
  "    const existing = await tx.scheduled_job_runs.findFirst({ where: { jobId, status: { in: ['queued', 'running'] } } });",
  '    if (existing) return null;',
  "    return tx.scheduled_job_runs.create({ data: { jobId, status: 'queued' } });",
  '  });',
  '}',
);

ruleTester.run('require-atomic-claim (find-then-create claims)', rule, {
  valid: [
    // an ordinary find-or-create: a profile made on first use
    onPrisma('profile', '{ userId: jobId }', 'if (!found) await prisma.profile.create({ data: { userId: jobId } });'),
    // a unique lookup: the create fails on the second replica
    lines(
      PRISMA,
      'export async function once(id: string) {',
      '  const seen = await prisma.processedEvent.findUnique({ where: { id } });',
      '  if (seen) return;',
      '  await prisma.processedEvent.create({ data: { id } });',
      '}',
    ),
    // the insert ignores a conflict on the unique key, and its count decides
    onPrisma(
      'jobRun',
      '{ jobId, period }',
      'if (found) return;',
      'const { count } = await prisma.jobRun.createMany({ data: [{ jobId, period }], skipDuplicates: true });',
      'if (count === 1) await sendDigest();',
    ),
    // the unique violation is caught: the database decides
    onPrisma(
      'jobRun',
      '{ jobId, period }',
      'if (found) return;',
      'try {',
      '  await prisma.jobRun.create({ data: { jobId, period } });',
      '} catch (error) {',
      "  if (error.code === 'P2002') return;",
      '  throw error;',
      '}',
      'await sendDigest();',
    ),
    // a run record found, but another kind of row created
    onPrisma('jobRun', '{ jobId, period }', 'if (!found) await prisma.auditLog.create({ data: { jobId } });'),
    // the lookup is only read: no create on the absent branch
    onPrisma('jobRun', '{ jobId, period }', 'if (!found) await sendDigest();'),
    // SQL: the insert does nothing on a conflict
    lines(
      PG,
      'export async function tick(name: string, slot: string) {',
      "  const { rows } = await pool.query('SELECT id FROM cron_runs WHERE name = $1 AND slot = $2', [name, slot]);",
      '  if (rows[0]) return;',
      "  await pool.query('INSERT INTO cron_runs (name, slot) VALUES ($1, $2) ON CONFLICT DO NOTHING', [name, slot]);",
      '}',
    ),
    // a SERIALIZABLE transaction: the second commit fails
    lines(
      PRISMA,
      'export async function start(jobId: string) {',
      '  return prisma.$transaction(async (tx) => {',
      '    const running = await tx.jobRun.findFirst({ where: { jobId, finishedAt: null } });',
      '    if (running) return null;',
      '    return tx.jobRun.create({ data: { jobId } });',
      "  }, { isolationLevel: 'Serializable' });",
      '}',
    ),
    // held under a replica-guard lease
    lines(
      PRISMA,
      "import { runExclusive } from 'replica-guard';",
      'export async function start(jobId: string) {',
      '  await runExclusive(`job:${jobId}`, 60_000, async () => {',
      '    const running = await prisma.jobRun.findFirst({ where: { jobId, finishedAt: null } });',
      '    if (running) return;',
      '    await prisma.jobRun.create({ data: { jobId } });',
      '  });',
      '}',
    ),
  ],
  invalid: [
    // a scheduled job's run for the period, created when absent, then the work
    claimed(
      onPrisma(
        'jobRun',
        '{ jobId, period }',
        'if (!found) {',
        '  await prisma.jobRun.create({ data: { jobId, period } });',
        '  await sendDigest();',
        '}',
      ),
      'findFirst',
      'jobRun',
    ),
    // one in-flight run per job, checked and created in an interactive transaction (READ COMMITTED)
    claimed(lines(PRISMA, START_RUN), 'findFirst', 'scheduled_job_runs'),
    // the same, in a file whose other function updates run rows (the lookup is also a status-filtered read)
    claimed(
      lines(
        PRISMA,
        START_RUN,
        'export async function markRunning(id: number) {',
        "  const { count } = await prisma.scheduled_job_runs.updateMany({ where: { id, status: 'queued' }, data: { status: 'running' } });",
        '  return count > 0;',
        '}',
      ),
      'findFirst',
      'scheduled_job_runs',
    ),
    // an idempotency record for a webhook event (Mongoose), the handler's work before the record
    claimed(
      lines(
        "import mongoose from 'mongoose';",
        'export async function onEvent(ProcessedEvent, event) {',
        '  const seen = await ProcessedEvent.findOne({ eventId: event.id });',
        '  if (seen) return;',
        '  await ProcessedEvent.create({ eventId: event.id });',
        '  await grantCredits(event);',
        '}',
        'declare function grantCredits(event: unknown): Promise<void>;',
      ),
      'findOne',
      'ProcessedEvent',
    ),
    // a TypeORM repository of run records
    claimed(
      lines(
        "import { Repository } from 'typeorm';",
        'export class Reports {',
        '  constructor(private readonly reportRunRepository: Repository<unknown>) {}',
        '  async claim(jobName: string, period: string) {',
        '    const run = await this.reportRunRepository.findOne({ where: { jobName, period } });',
        '    if (run) return false;',
        '    await this.reportRunRepository.insert({ jobName, period });',
        '    return true;',
        '  }',
        '}',
      ),
      'findOne',
      'reportRunRepository',
    ),
    // raw SQL: a cron slot looked up and inserted
    claimed(
      lines(
        PG,
        'export async function tick(name: string, slot: string) {',
        "  const { rows } = await pool.query('SELECT id FROM cron_runs WHERE name = $1 AND slot = $2', [name, slot]);",
        '  if (rows[0]) return;',
        "  await pool.query('INSERT INTO cron_runs (name, slot) VALUES ($1, $2)', [name, slot]);",
        '}',
      ),
      'SELECT',
      'cron_runs',
    ),
  ],
});
