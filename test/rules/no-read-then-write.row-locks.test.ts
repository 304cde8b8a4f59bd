// no-read-then-write inside a transaction that first locks a row (`SELECT … FOR UPDATE`, in place or
// in a project helper): rows read by that row's key and written back are the locking writer's
// alone. Next to each, the near-identical shape that stays reported: a lock on another key, a lock
// taken after the read, a helper that locks nothing, the read outside the transaction.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

/** A helper locking (or only reading) the asset row. */
const helper = (sql: string) => lines('async function lockAsset(tx, assetId) {', `  return tx.$queryRaw\`${sql}\`;`, '}');
const LOCKING = helper('SELECT * FROM "Asset" WHERE id = ${assetId} FOR UPDATE');
const READING = helper('SELECT * FROM "Asset" WHERE id = ${assetId}');

/** Units moved out of a location in one transaction: `before` (under the transaction, before the read), then the read and the write. */
const move = (top: string, before: string, after = '') =>
  lines(
    "import { PrismaClient } from '@prisma/client';",
    'const db = new PrismaClient();',
    top,
    'export async function moveUnits(assetId, otherId, from, n) {',
    '  await db.$transaction(async (tx) => {',
    `    ${before}`,
    '    const source = await tx.assetLocation.findFirst({ where: { assetId, locationId: from } });',
    `    ${after}`,
    '    await tx.assetLocation.update({ where: { id: source.id }, data: { quantity: source.quantity - n } });',
    '  });',
    '}',
  );

const reported = (code: string, line: number) => ({
  code,
  errors: [{ messageId: 'prisma', data: { field: 'quantity' }, line, column: 28 }],
});

ruleTester.run('no-read-then-write (a row locked first)', rule, {
  valid: [
    // the asset row locked by a project helper, then its placements read by the asset's key
    move(LOCKING, 'await lockAsset(tx, assetId);'),
    // the lock sent in place
    move('', 'await tx.$queryRaw`SELECT id FROM "Asset" WHERE id = ${assetId} FOR UPDATE`;'),
    // FOR NO KEY UPDATE
    move('', 'await tx.$queryRaw`SELECT id FROM "Asset" WHERE id = ${assetId} FOR NO KEY UPDATE`;'),
  ],
  invalid: [
    // a lock on another row
    reported(move(LOCKING, 'await lockAsset(tx, otherId);'), 11),
    // a helper that reads the row without locking it
    reported(move(READING, 'await lockAsset(tx, assetId);'), 11),
    // the lock taken after the read
    reported(move(LOCKING, '', 'await lockAsset(tx, assetId);'), 11),
    // no lock at all
    reported(move('', ''), 9),
  ],
});
