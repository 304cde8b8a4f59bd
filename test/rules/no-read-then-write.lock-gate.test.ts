// no-read-then-write on a read made only after its function won a distributed lock: an earlier
// statement takes a lock by name and leaves when it was not won (`const acquired = await
// tryAcquireWriterLock(db); if (!acquired) return …;`). One holder reads and writes back at a time: not
// reported. Reported when the lock is taken after the read, when its answer is not tested, or when it
// is an in-process mutex.
import { noReadThenWrite } from '../../rules/no-read-then-write.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');

/** A checkpoint advanced by one; `before` runs before the read, `between` between the read and the write. */
const advance = (before: string[], between: string[] = []) =>
  lines(
    "import { prisma } from './db';",
    "import { tryAcquireWriterLock, mutex } from './locks';",
    'export async function advanceShard() {',
    ...before,
    "  const row = await prisma.checkpoint.findUnique({ where: { id: 'default' } });",
    ...between,
    '  const prev = row?.shardIndex ?? 0;',
    "  await prisma.checkpoint.update({ where: { id: 'default' }, data: { shardIndex: prev + 1 } });",
    '}',
  );

const GATE = [
  '  const acquired = await tryAcquireWriterLock(prisma);',
  '  if (!acquired) {',
  "    console.log('skipped');",
  '    return;',
  '  }',
];

const reported = (before: string[], between: string[] = []) => {
  const line = 4 + before.length + between.length + 2;
  return { code: advance(before, between), errors: [{ messageId: 'prisma' as const, data: { field: 'shardIndex' }, line, column: 27 }] };
};

ruleTester.run('no-read-then-write (lock gate first)', noReadThenWrite, {
  valid: [{ code: advance(GATE) }, { code: advance(['  if (!(await tryAcquireWriterLock(prisma))) return;']) }],
  invalid: [
    // The lock is taken after the read.
    reported([], GATE),
    // Its answer is not tested.
    reported(['  await tryAcquireWriterLock(prisma);']),
    // An in-process mutex.
    reported(['  if (!(await mutex.tryLock())) return;']),
  ],
});
