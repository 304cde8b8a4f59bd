// require-atomic-claim on reads no two replicas race: a handler of the process's end settling its
// own runs, a script run by hand from a scripts folder, and a prune (one delete of rows worked out
// in memory, nothing else done). Next to each, the near-identical shape that stays reported: a
// handler of another event, a script that runs again or a file outside a scripts folder, a
// delete with work awaited before it, a delete in the loop, the rows handed back after it.
import { ruleTester } from './rule-tester.js';
import { claim } from './claim-report.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

/** A handler of `event` on `target` failing the runs of this process's browsers. */
const onEvent = (target: string, event: string) =>
  lines(
    "import { Run } from './models';",
    `${target}.on('${event}', async () => {`,
    '  for (const [browserId] of pool.all()) {',
    "    const run = await Run.findOne({ where: { browserId, status: 'running' } });",
    "    if (run) await run.update({ status: 'failed' });",
    '  }',
    '});',
  );

/** A script marking commissions paid: `main` run by `start`. */
const script = (start: string, extra = '') =>
  lines(
    "import { prisma } from '@/lib/prisma';",
    'async function main() {',
    "  const rows = await prisma.commission.findMany({ where: { status: 'pending' } });",
    '  for (const row of rows) {',
    '    await payouts.send(row);',
    "    await prisma.commission.update({ where: { id: row.id }, data: { status: 'paid' } });",
    '  }',
    extra,
    '}',
    start,
  );

/** Insights past the top N dropped: `between` after the read, the delete, then `after`. */
const prune = (
  between: string,
  after = 'return { deleted: result.count };',
  loopBody = 'if (insight.impactScore < floor) toDelete.push(insight.id);',
) =>
  lines(
    "import { db } from './db';",
    'export async function applySuppression(projectId: string, floor: number) {',
    "  const insights = await db.projectInsight.findMany({ where: { projectId, state: 'active' }, orderBy: { impactScore: 'desc' } });",
    '  const toDelete: string[] = [];',
    '  for (const insight of insights) {',
    `    ${loopBody}`,
    '  }',
    `  ${between}`,
    '  const result = await db.projectInsight.deleteMany({ where: { id: { in: toDelete } } });',
    `  ${after}`,
    '}',
  );

ruleTester.run('require-atomic-claim (one run: shutdown, scripts, prunes)', rule, {
  valid: [
    onEvent('process', 'SIGINT'),
    onEvent('process', 'SIGTERM'),
    { code: script('main();'), filename: 'apps/web/scripts/programs/mark-paid.ts' },
    { code: script('main().catch(console.error);'), filename: 'scripts/mark-paid.ts' },
    prune(''),
    prune('if (toDelete.length === 0) return { deleted: 0 };'),
  ],
  invalid: [
    // another event: a message handler runs on every replica
    claim(onEvent('queue', 'message'), 'findOne', 'status', 'run.update('),
    // a script that runs again on a timer
    {
      ...claim(script('main();', '  setInterval(main, 60_000);'), 'findMany', 'status', 'prisma.commission.update('),
      filename: 'scripts/mark-paid.ts',
    },
    // the same file outside a scripts folder
    { ...claim(script('main();'), 'findMany', 'status', 'prisma.commission.update('), filename: 'src/billing/mark-paid.ts' },
    // work awaited on the rows before the delete
    claim(prune('await notifyOwners(toDelete);'), 'findMany', 'state', 'db.projectInsight.deleteMany('),
    // the rows handed back after the delete: the caller acts on them
    claim(prune('', 'return insights;'), 'findMany', 'state', 'db.projectInsight.deleteMany('),
    // a delete per row, in the loop
    claim(
      prune('', 'return;', 'await db.projectInsight.deleteMany({ where: { id: insight.id } });'),
      'findMany',
      'state',
      'db.projectInsight.deleteMany(',
    ),
  ],
});
