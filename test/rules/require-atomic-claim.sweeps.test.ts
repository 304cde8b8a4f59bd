// require-atomic-claim on sweeps: stale rows read, then one update of them that stamps fixed values
// (a failed state, the time, a message built from no row) and nothing else done with them. A
// second replica writes what the first did. Reported: a value computed from the row in SQL, an
// update per row in a loop, work awaited on the rows, the rows handed on after the update.
import { ruleTester } from './rule-tester.js';
import { claim } from './claim-report.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

/** Drizzle: builds stuck in `running` past a cutoff, their ids, then `update` (the statement marking them) and `after`. */
const sweepBuilds = (values: string, after = 'return { swept: marked.length };', between = '') =>
  lines(
    "import { and, eq, inArray, lt, sql } from 'drizzle-orm';",
    'export async function sweepStuckBuilds(db, builds, minutes) {',
    '  const cutoff = new Date(Date.now() - minutes * 60_000);',
    "  const stuck = await db.select({ id: builds.id }).from(builds).where(and(eq(builds.status, 'running'), lt(builds.heartbeatAt, cutoff)));",
    '  const ids = stuck.map((b) => b.id);',
    '  if (ids.length === 0) return { swept: 0 };',
    ...(between ? [`  ${between}`] : []),
    `  const marked = await db.update(builds).set(${values}).where(inArray(builds.id, ids)).returning({ id: builds.id });`,
    `  ${after}`,
    '}',
  );

const FAILED = "{ status: 'failed', error: `no heartbeat for ${minutes}m`, finishedAt: sql`now()` }";

/** Prisma: exports stuck in `PROCESSING`, then `write`. */
const sweepExports = (...write: string[]) =>
  lines(
    'export async function expireExports(prisma, cutoff) {',
    "  const stale = await prisma.exportJob.findMany({ where: { status: 'PROCESSING', startedAt: { lt: cutoff } }, select: { id: true } });",
    ...write.map((l) => `  ${l}`),
    '}',
  );

ruleTester.run('require-atomic-claim (sweeps stamping fixed values)', rule, {
  valid: [sweepBuilds(FAILED), sweepBuilds('{ status: BuildStatus.Failed, lockedBy: null, finishedAt: new Date() }')],
  invalid: [
    // a value computed from the row in SQL: two replicas count the retry twice
    claim(sweepBuilds("{ status: 'queued', retries: sql`retries + 1` }"), 'select', 'status', 'marked = await db.update('),
    // work awaited on the rows before the update
    claim(
      sweepBuilds(FAILED, 'return { swept: marked.length };', 'await alertOwners(ids);'),
      'select',
      'status',
      'marked = await db.update(',
    ),
    // the rows handed on after the update: a caller acts on them
    claim(sweepBuilds(FAILED, 'return stuck;'), 'select', 'status', 'marked = await db.update('),
    // a value taken from the rows read
    claim(sweepBuilds("{ status: 'failed', error: `stale: ${ids.join(',')}` }"), 'select', 'status', 'marked = await db.update('),
    // one update per row in a loop
    claim(
      sweepExports(
        'for (const job of stale) {',
        "  await prisma.exportJob.update({ where: { id: job.id }, data: { status: 'FAILED', finishedAt: new Date() } });",
        '}',
      ),
      'findMany',
      'status',
      'prisma.exportJob.update(',
    ),
  ],
});
