// no-read-then-write where no two writers race the value: a row locked first by a helper this file
// cannot read but whose name says it locks and that is handed the transaction; a write only
// outside production (a non-atomic fallback refused there); a command whose one run ends the
// process, and a script started from a scripts folder. Next to each, the near-identical shape that
// stays reported.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');

/** Units moved out of a location in one transaction, after `before` (an imported helper's call). */
const move = (before: string) =>
  lines(
    "import { db } from './db';",
    "import { lockAssetForUpdate, loadAsset } from './locks';",
    'export async function moveUnits(assetId, otherId, from, n) {',
    '  await db.$transaction(async (tx) => {',
    `    ${before}`,
    '    const source = await tx.assetLocation.findFirst({ where: { assetId, locationId: from } });',
    '    await tx.assetLocation.update({ where: { id: source.id }, data: { quantity: source.quantity - n } });',
    '  });',
    '}',
  );
const movedAt7 = (code: string) => ({ code, errors: [{ messageId: 'prisma' as const, data: { field: 'quantity' }, line: 7, column: 28 }] });

/** Credits added to a Redis accumulator by a fallback, after `gate`. */
const fallback = (gate: string[]) =>
  lines(
    "import Redis from 'ioredis';",
    'const redis = new Redis();',
    'export async function accumulate(key: string, amount: number, error: unknown) {',
    "  const nodeEnv = process.env.NODE_ENV ?? '';",
    ...gate.map((l) => `  ${l}`),
    "  const existing = Number((await redis.get(key)) || '0');",
    '  await redis.set(key, String(existing + amount));',
    '}',
  );
const fallbackAt = (code: string) => {
  const line = code.split('\n').findIndex((l) => l.includes('redis.set(')) + 1;
  return { code, errors: [{ messageId: 'redis' as const, data: { field: 'key' }, line, column: 15 }] };
};

/** A backfill: every balance topped up by its bonus, `main` run by `start`. */
const backfill = (start: string) =>
  lines(
    "import knex from 'knex';",
    'const db = knex({});',
    'async function main() {',
    "  const account = await db('accounts').where({ id: 1 }).first();",
    "  await db('accounts').where({ id: 1 }).update({ balance: account.balance + account.bonus });",
    '}',
    start,
  );
const backfillAt5 = (code: string) => ({ code, errors: [{ messageId: 'knex' as const, data: { field: 'balance' }, line: 5, column: 41 }] });

ruleTester.run('no-read-then-write (one writer)', noReadThenWrite, {
  valid: [
    // an imported helper named for a row lock, handed the transaction and the key read
    move('await lockAssetForUpdate(tx, assetId);'),
    // production refuses the fallback
    fallback(["if (nodeEnv === 'production' || nodeEnv === 'staging') throw error;"]),
    fallback(["if (process.env.NODE_ENV === 'production') {", '  log(error);', '  throw error;', '}']),
    // the write runs in a development branch
    lines(
      "import Redis from 'ioredis';",
      'const redis = new Redis();',
      'export async function bump(key: string) {',
      "  if (process.env.NODE_ENV !== 'production') {",
      "    const n = Number((await redis.get(key)) || '0');",
      '    await redis.set(key, String(n + 1));',
      '  }',
      '}',
    ),
    // one run, then the process exits
    backfill('main().then(() => process.exit(0)).catch(() => process.exit(1));'),
    // a script started from a scripts folder
    { code: backfill('main();'), filename: 'scripts/topup-bonus.ts' },
    // the run wrapped in a top-level try that exits when it is done
    backfill(lines('try {', '  await runScript(main);', '  process.exit(0);', '} catch (error) {', '  process.exit(1);', '}')),
  ],
  invalid: [
    // the lock taken on another key
    movedAt7(move('await lockAssetForUpdate(tx, otherId);')),
    // a helper whose name says nothing of a lock
    movedAt7(move('await loadAsset(tx, assetId);')),
    // a lock helper not handed the transaction: its lock is another transaction's
    movedAt7(move('await lockAssetForUpdate(db, assetId);')),
    // production only logged, not refused
    fallbackAt(fallback(["if (nodeEnv === 'production') console.warn('non-atomic');"])),
    // refused in development: production runs it
    fallbackAt(fallback(["if (nodeEnv === 'development') throw error;"])),
    // exits only on failure: a server does that too
    backfillAt5(backfill('main().catch(() => process.exit(1));')),
    // the same start outside a scripts folder
    { ...backfillAt5(backfill('main();')), filename: 'src/billing/topup-bonus.ts' },
    // a top-level try that exits only on failure: a server's start does that too
    backfillAt5(backfill(lines('try {', '  await runScript(main);', '} catch (error) {', '  process.exit(1);', '}'))),
  ],
});
