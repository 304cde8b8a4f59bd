// no-read-then-write inside a transaction that first takes a transaction advisory lock: in place
// (`pg_advisory_xact_lock` sent on the transaction), through a helper handed the transaction whose
// name says it takes one (out of reach), or through a helper of the file that hands its transaction
// parameter on to such a helper. Next to each, the near-identical shape that stays reported: the lock
// taken after the read, sent on the outer client, the `try` form, a helper not handed the transaction,
// a helper named for no transaction lock.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

/** Failed sign-ins counted in one transaction: `before` runs in it before the read, `after` between the read and the write. */
const failed = (before: string, after = '', top = '') =>
  lines(
    "import { PrismaClient } from '@prisma/client';",
    "import { takeTransactionAdvisoryLocks, takeNamedLocks } from './locks';",
    'const db = new PrismaClient();',
    top,
    'export async function noteFailedSignIn(key) {',
    '  await db.$transaction(async (tx) => {',
    `    ${before}`,
    '    const seen = await tx.signInFailure.findUnique({ where: { key } });',
    `    ${after}`,
    '    await tx.signInFailure.update({ where: { key }, data: { count: (seen?.count ?? 0) + 1 } });',
    '  });',
    '}',
  );

/** A helper of the file that hands its transaction on to `inner`. */
const LOCAL = lines('async function lockBuckets(tx, key) {', '  await takeTransactionAdvisoryLocks(tx, [`bucket:${key}`]);', '}');
const LOCAL_NOTHING = lines('async function lockBuckets(tx, key) {', '  await tx.bucket.findMany({ where: { key } });', '}');

const reported = (code: string, line = 10) => ({
  code,
  errors: [{ messageId: 'prisma', data: { field: 'count' }, line, column: 28 }],
});

ruleTester.run('no-read-then-write (a transaction advisory lock taken first)', rule, {
  valid: [
    // the lock sent on the transaction, in place
    failed('await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${key}))`;'),
    // a helper out of reach, named for a transaction advisory lock and handed the transaction
    failed('await takeTransactionAdvisoryLocks(tx, [`sign-in:${key}`]);'),
    // a helper of the file handing its transaction on to one
    failed('await lockBuckets(tx, key);', '', LOCAL),
  ],
  invalid: [
    // the lock taken after the read
    reported(failed('', 'await takeTransactionAdvisoryLocks(tx, [`sign-in:${key}`]);')),
    // sent on the outer client: its own statement's transaction, over at once
    reported(failed('await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${key}))`;')),
    // the `try` form, whose answer is not tested
    reported(failed('await tx.$executeRaw`SELECT pg_try_advisory_xact_lock(hashtext(${key}))`;')),
    // not handed the transaction
    reported(failed('await takeTransactionAdvisoryLocks(db, [`sign-in:${key}`]);')),
    // named for no transaction lock
    reported(failed('await takeNamedLocks(tx, [`sign-in:${key}`]);')),
    // a helper of the file that takes no lock
    reported(failed('await lockBuckets(tx, key);', '', LOCAL_NOTHING), 12),
  ],
});
