// no-read-then-write when a loaded row is read again under a row lock in a transaction
// (Sequelize `row.reload({ transaction, lock: true })`): its values are current and the row is held
// until the commit, so the write-back that follows in that transaction is not reported. A reload
// without the lock, or with the lock but outside a transaction, still is.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

/** A garden handed in (a row its caller loaded), reloaded with `reloadOptions` in a transaction, then changed and saved. */
const handedIn = (reloadOptions: string) =>
  lines(
    "import Garden from '../models/garden.model';",
    "import store from '../store';",
    'export async function plant(garden: Garden, seeds: number) {',
    '  await store.transaction(async (transaction) => {',
    `    await garden.reload(${reloadOptions});`,
    '    garden.seedsLeft -= seeds;',
    '    await garden.save({ transaction });',
    '  });',
    '}',
  );

/** A plot found by key, reloaded with `reloadOptions` in a transaction, then changed and saved. */
const foundFirst = (reloadOptions: string) =>
  lines(
    "import { Sequelize } from 'sequelize';",
    "import Plot from './plot';",
    'const sequelize = new Sequelize();',
    'export async function water(plotId: number, litres: number) {',
    '  const plot = await Plot.findByPk(plotId);',
    '  await sequelize.transaction(async (t) => {',
    `    await plot.reload(${reloadOptions});`,
    '    plot.moisture += litres;',
    '    await plot.save({ transaction: t });',
    '  });',
    '}',
  );

ruleTester.run('no-read-then-write (rows reloaded under a lock)', rule, {
  valid: [
    handedIn('{ transaction, lock: true }'),
    handedIn('{ include: [Bed], transaction, lock: transaction.LOCK.UPDATE }'),
    foundFirst('{ transaction: t, lock: t.LOCK.UPDATE }'),
  ],
  invalid: [
    // reloaded in the transaction, but without a lock: another transaction still reads the same values
    { code: handedIn('{ transaction }'), errors: [{ messageId: 'sequelize', line: 7, column: 18 }] },
    // the lock outside a transaction ends with the reload's own statement
    { code: handedIn('{ lock: true }'), errors: [{ messageId: 'sequelize', line: 7, column: 18 }] },
    { code: foundFirst('{ transaction: t, lock: false }'), errors: [{ messageId: 'sequelize', line: 9, column: 16 }] },
  ],
});
