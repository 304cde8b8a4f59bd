// no-read-then-write when the read and its write sit in one callback the database serialises — a
// named lock's (`this.database.lock(async () => …)`, `redlock.using(…)`) or a SERIALIZABLE
// transaction's (`prisma.$transaction(async (tx) => …, { isolationLevel: 'Serializable' })`) — and
// when a value set to a local object's field is computed from other fields only
// (`patch.difference = item.external - payment.amount`). Reported still: an in-process mutex's
// callback, a transaction at the default isolation, a read outside the locked callback, a field of
// the object computed from its own value.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];
const error = (messageId: string, field: string, line: number, column: number) => ({ messageId, data: { field }, line, column });

/** A notification counter read and raised inside the callback handed to `wrap`. */
const counter = (wrap: string) =>
  lines(
    "import { PrismaClient } from '@prisma/client';",
    'const prisma = new PrismaClient();',
    'export async function notify(locks, userId, body) {',
    `  await ${wrap}(async () => {`,
    '    const n = await prisma.notification.findFirst({ where: { userId, body } });',
    '    await prisma.notification.update({ where: { id: n.id }, data: { counter: n.counter + 1 } });',
    '  });',
    '}',
  );

/** A balance re-read and set inside an interactive transaction started with `options`. */
const expire = (options: string) =>
  lines(
    "import { PrismaClient } from '@prisma/client';",
    'const prisma = new PrismaClient();',
    'export async function expire(id, amount) {',
    '  await prisma.$transaction(async (tx) => {',
    '    const cc = await tx.cashback.findUnique({ where: { id } });',
    '    await tx.cashback.update({ where: { id }, data: { balance: Math.max(0, cc.balance - amount) } });',
    `  }${options});`,
    '}',
  );

/** An item's field set on a local patch from `value`, the patch written to the item. */
const reconcile = (value: string) =>
  lines(
    "import { PrismaClient } from '@prisma/client';",
    'const prisma = new PrismaClient();',
    'export async function match(itemId, paymentId) {',
    '  const item = await prisma.reconciliationItem.findFirst({ where: { id: itemId } });',
    '  const payment = await prisma.salePayment.findFirst({ where: { id: paymentId } });',
    '  const patch = {};',
    `  patch.differenceAmount = ${value};`,
    '  await prisma.reconciliationItem.update({ where: { id: itemId }, data: patch });',
    '}',
  );

ruleTester.run('no-read-then-write (sections the database serialises, fields set from others)', rule, {
  valid: [
    counter('this.database.lock'),
    counter('redlock.using'),
    expire(', { isolationLevel: Prisma.TransactionIsolationLevel.Serializable }'),
    expire(", { isolationLevel: 'Serializable', timeout: 30000 }"),
    reconcile('Number(item.externalAmount) - Number(payment.amount)'),
  ],
  invalid: [
    // a mutex holds within this process only
    { code: counter('mutex.runExclusive'), errors: [error('prisma', 'counter', 6, 31)] },
    // the default isolation lets both transactions commit
    { code: expire(''), errors: [error('prisma', 'balance', 6, 23)] },
    { code: expire(', { timeout: 30000 }'), errors: [error('prisma', 'balance', 6, 23)] },
    // the field computed from its own value
    { code: reconcile('item.differenceAmount + Number(payment.amount)'), errors: [error('prisma', 'differenceAmount', 8, 35)] },
  ],
});
