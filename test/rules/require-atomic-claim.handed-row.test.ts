// require-atomic-claim when the worker hands the pending row to a handler of the same file that
// marks it (`await renderOne(job.id)` whose body updates the render by the id it received): the row
// is marked one call away from the read, and two replicas render it twice. Quiet: the handler claims
// with a checked conditional transition, the handler marks a row of another table, only reads, or is
// called after the loop won the row itself. A handler that returns `new Promise(async (resolve) => …)`
// marks the row inside the executor (it runs at once); a callback it only hands on (a timer) does not.
import { jsRuleTester, ruleTester } from './rule-tester.js';
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

/** A Mongoose archiver: each queued archive handed to `packArchive`, which wraps its work in a promise; `body` runs inside. */
const packer = (body: string[], wrap = (inner: string[]) => ['return new Promise(async (resolve) => {', ...inner, '});']) =>
  lines(
    "const Archive = require('./archive.model');",
    'function packArchive(archive) {',
    ...wrap(['await zipFolder(archive.folder);', ...body, "resolve('packed');"]).map((l) => `  ${l}`),
    '}',
    'async function packQueued() {',
    "  const queued = await Archive.find({ status: 'queued' }).limit(5);",
    '  await Promise.allSettled(queued.map((archive) => packArchive(archive)));',
    '}',
    'setInterval(packQueued, 10000);',
  );

jsRuleTester.run('require-atomic-claim (a handler working inside a promise it returns)', rule, {
  valid: [
    // the executor claims the row first: a conditional transition whose count it tests
    packer([
      "const claimed = await Archive.updateOne({ _id: archive._id, status: 'queued' }, { $set: { status: 'packing' } });",
      'if (claimed.modifiedCount === 0) return;',
    ]),
    // the mark is in a timer the handler only sets up: not run as part of the handler
    packer(["await Archive.updateOne({ _id: archive._id }, { $set: { status: 'packed' } });"], (inner) => [
      'setTimeout(async () => {',
      ...inner,
      '}, 1000);',
    ]),
  ],
  invalid: [
    {
      code: packer(["await Archive.updateOne({ _id: archive._id }, { $set: { status: 'packed' } });"]),
      errors: [
        {
          messageId: 'nonAtomicClaim',
          data: { column: 'status', markedAt: ' (at line 11, where this report ends)' },
          line: 10,
          column: 32,
        },
      ],
    },
  ],
});
