// no-read-then-write when the write-back releases a claim the file takes on the same rows: it clears
// a field (`heldAt: null`) that a conditional update of the file sets only where it is still clear.
// Only the claim's holder releases it, so no second writer races what the release sends. Still
// reported: a write that releases nothing, a claim on another model, or an update that sets the
// field whatever it held (no claim).
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

/** A job store: `take` claims jobs with `claim` (model and filter), `fail` writes a job back with `data`. */
const store = (claimModel: string, claimFilter: string, data: string) =>
  lines(
    "import { PrismaClient } from '@prisma/client';",
    'const prisma = new PrismaClient();',
    'export class JobStore {',
    '  async take(worker: string) {',
    '    const open = await prisma.job.findMany({ where: { heldAt: null }, take: 10 });',
    '    const held = [];',
    '    for (const job of open) {',
    `      const res = await prisma.${claimModel}.updateMany({ where: ${claimFilter}, data: { heldAt: new Date(), heldBy: worker } });`,
    '      if (res.count === 1) held.push(job);',
    '    }',
    '    return held;',
    '  }',
    '  async fail(id: string) {',
    '    const job = await prisma.job.findUnique({ where: { id } });',
    `    await prisma.job.update({ where: { id }, data: { ${data} } });`,
    '  }',
    '}',
  );

const CLAIM = '{ id: job.id, heldAt: null }';
const RELEASE = 'tries: job.tries + 1, heldAt: null, heldBy: null';

ruleTester.run('no-read-then-write (write-backs that release a claim of the file)', rule, {
  valid: [store('job', CLAIM, RELEASE)],
  invalid: [
    // releases nothing
    { code: store('job', CLAIM, 'tries: job.tries + 1'), errors: [{ messageId: 'prisma', line: 15, column: 22 }] },
    // the claim is on another model
    { code: store('task', CLAIM, RELEASE), errors: [{ messageId: 'prisma', line: 15, column: 22 }] },
    // the update sets the field whatever it held: no claim
    { code: store('job', '{ id: job.id }', RELEASE), errors: [{ messageId: 'prisma', line: 15, column: 22 }] },
  ],
});
