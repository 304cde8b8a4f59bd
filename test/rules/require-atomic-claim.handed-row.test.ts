// require-atomic-claim when the worker hands the pending row to a handler of the same file that
// marks it (`await renderOne(job.id)` whose body updates the render by the id it received): the row
// is marked one call away from the read, and two replicas render it twice. Quiet: the handler claims
// with a checked conditional transition, the handler marks a row of another table, only reads, or is
// called after the loop won the row itself.
import { ruleTester } from './rule-tester.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

/** A render worker: `renderOne(renderId)` runs `handler`, the loop runs `loop` for each pending render. */
const worker = (handler: string[], loop: string[] = ['await renderOne(job.id);']) =>
  lines(
    "import { prisma } from './db';",
    'async function renderOne(renderId: string) {',
    ...handler.map((l) => `  ${l}`),
    '}',
    'export async function renderPending() {',
    "  const jobs = await prisma.render.findMany({ where: { status: 'pending' } });",
    '  for (const job of jobs) {',
    ...loop.map((l) => `    ${l}`),
    '  }',
    '}',
  );

const MARK = "await prisma.render.update({ where: { id: renderId }, data: { status: 'running' } });";
const SEND = 'await uploads.send(renderId);';

ruleTester.run('require-atomic-claim (a row handed to a same-file handler)', rule, {
  valid: [
    // the handler claims the row: a conditional transition whose count it tests
    worker([
      "const { count } = await prisma.render.updateMany({ where: { id: renderId, status: 'pending' }, data: { status: 'running' } });",
      'if (count === 0) return;',
      SEND,
    ]),
    // the handler writes another table's row, keyed by something else
    worker(["await prisma.episode.update({ where: { id: 'latest' }, data: { status: 'stale' } });", SEND]),
    // the handler only reads the row and sends it on
    worker(['const row = await prisma.render.findUnique({ where: { id: renderId } });', 'await uploads.send(row);']),
    // the loop wins the row before the handler marks it
    worker(
      [MARK, SEND],
      [
        "const won = await prisma.render.updateMany({ where: { id: job.id, status: 'pending' }, data: { status: 'claimed' } });",
        'if (won.count === 0) continue;',
        'await renderOne(job.id);',
      ],
    ),
  ],
  invalid: [
    {
      code: worker([MARK, SEND]),
      errors: [
        { messageId: 'nonAtomicClaim', data: { column: 'status', markedAt: ' (at line 9, where this report ends)' }, line: 7, column: 36 },
      ],
    },
    // the row itself handed over
    {
      code: lines(
        "import { prisma } from './db';",
        'async function deliver(row: { id: string }) {',
        '  await mailer.send(row.id);',
        '  await prisma.outbox.update({ where: { id: row.id }, data: { sentAt: new Date() } });',
        '}',
        'export async function relay() {',
        '  const rows = await prisma.outbox.findMany({ where: { sentAt: null } });',
        '  for (const row of rows) await deliver(row);',
        '}',
      ),
      errors: [
        { messageId: 'nonAtomicClaim', data: { column: 'sentAt', markedAt: ' (at line 8, where this report ends)' }, line: 7, column: 36 },
      ],
    },
  ],
});
