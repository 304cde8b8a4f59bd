// require-atomic-claim in a worker's module that exports its work and also starts it when run
// directly (`if (require.main === module) LedgerWorker.settle()`): the scheduler or worker process
// that imports it runs it on every replica, so the manual start does not make it a one-off
// command. A file named for no long-running process, or one that exports nothing, stays one.
import { ruleTester } from './rule-tester.js';
import { claim } from './claim-report.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

/** Held rebates read and released one by one by a class (`exported` or not), then started directly. */
const settle = (exported: boolean) =>
  lines(
    "import { prisma } from '../db/client';",
    `${exported ? 'export ' : ''}class LedgerWorker {`,
    '  static async settle() {',
    "    const due = await prisma.rebate.findMany({ where: { status: 'HELD', releaseAt: { lte: new Date() } } });",
    '    for (const rebate of due) {',
    '      await prisma.$transaction(async (tx) => {',
    "        await tx.rebate.update({ where: { id: rebate.id }, data: { status: 'RELEASED' } });",
    '        await tx.purse.update({ where: { holderId: rebate.holderId }, data: { cents: { increment: rebate.cents } } });',
    '      });',
    '    }',
    '  }',
    '}',
    'if (require.main === module) {',
    '  LedgerWorker.settle().then(() => process.exit(0));',
    '}',
  );

ruleTester.run('require-atomic-claim (exported workers started directly too)', rule, {
  valid: [
    // named for no long-running process: an operator's command
    { code: settle(true), filename: 'src/tools/release-rebates.ts' },
    // a worker's name, but nothing exported: the file runs only when started
    { code: settle(false), filename: 'src/worker/release-rebates.ts' },
  ],
  invalid: [
    { ...claim(settle(true), 'findMany', 'status', 'tx.rebate.update('), filename: 'src/worker/release-rebates.ts' },
    { ...claim(settle(true), 'findMany', 'status', 'tx.rebate.update('), filename: 'src/ledger/rebate-worker.ts' },
    { ...claim(settle(true), 'findMany', 'status', 'tx.rebate.update('), filename: 'src/daemon/rebates.ts' },
  ],
});
