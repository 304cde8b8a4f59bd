// no-read-then-write when the read and its write-back run in one MongoDB transaction: both name the
// session (`.session(session)`, `{ session }`) and the session's transaction is running around the
// read (`session.withTransaction(async () => …)`, a runner's callback given the session, or
// `session.startTransaction()` before it). A concurrent writer of the document makes one transaction
// fail with a write conflict. Reported still: a read outside the session, a write after the commit,
// a write that leaves the session, a session with no transaction, an SQL transaction.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];
const error = (messageId: string, field: string, line: number, column: number) => ({ messageId, data: { field }, line, column });

/** A balance raised inside `session.withTransaction`, read with `read` and saved with `save`. */
const topUp = (read: string, save: string) =>
  lines(
    "import mongoose from 'mongoose';",
    "import { Wallet } from '../models/wallet.js';",
    'export async function topUp(id, amount) {',
    '  const session = await mongoose.startSession();',
    '  await session.withTransaction(async () => {',
    `    const wallet = await ${read};`,
    '    wallet.balance = wallet.balance + amount;',
    `    await ${save};`,
    '  });',
    '  await session.endSession();',
    '}',
  );

/** A balance taken off after `session.startTransaction()`, `between` the save and the commit. */
const withdraw = (start: string, between: string, after: string) =>
  lines(
    "import mongoose from 'mongoose';",
    "import { Wallet } from '../models/wallet.js';",
    'export async function withdraw(id, amount) {',
    '  const session = await mongoose.startSession();',
    `  ${start}`,
    '  try {',
    '    const wallet = await Wallet.findById(id).session(session);',
    '    wallet.balance -= amount;',
    `    ${between}`,
    '    await wallet.save({ session });',
    `    ${after}`,
    '  } catch (e) {',
    '    await session.abortTransaction();',
    '    throw e;',
    '  }',
    '}',
  );

ruleTester.run('no-read-then-write (one MongoDB transaction)', rule, {
  valid: [
    topUp('Wallet.findById(id).session(session)', 'wallet.save({ session })'),
    // A document read in a session saves in it with no option given.
    topUp('Wallet.findById(id).session(session)', 'wallet.save()'),
    topUp('Wallet.findOne({ _id: id }, null, { session })', 'wallet.save({ session: session })'),
    withdraw('session.startTransaction();', '', 'await session.commitTransaction();'),
    // Mongoose's `connection.transaction((session) => …)` hands the session to its callback.
    lines(
      "import mongoose from 'mongoose';",
      "import { Wallet } from '../models/wallet.js';",
      'export async function topUp(id, amount) {',
      '  await mongoose.connection.transaction(async (session) => {',
      '    const wallet = await Wallet.findById(id).session(session);',
      '    wallet.balance += amount;',
      '    await wallet.save({ session });',
      '  });',
      '}',
    ),
  ],
  invalid: [
    // The read leaves the session out: it is no part of the transaction.
    { code: topUp('Wallet.findById(id)', 'wallet.save({ session })'), errors: [error('mongoose', 'balance', 8, 18)] },
    // Another session's transaction.
    { code: topUp('Wallet.findById(id).session(other)', 'wallet.save({ session: other })'), errors: [error('mongoose', 'balance', 8, 18)] },
    // A session with no transaction started: each operation stands alone.
    {
      code: withdraw('', '', ''),
      errors: [error('mongoose', 'balance', 10, 18)],
    },
    // Committed before the write: the write stands alone.
    {
      code: withdraw('session.startTransaction();', 'await session.commitTransaction();', ''),
      errors: [error('mongoose', 'balance', 10, 18)],
    },
    // An SQL transaction at the default isolation does not refuse the lost update.
    {
      code: lines(
        "import { Sequelize } from 'sequelize';",
        "import { Wallet } from '../models/wallet.js';",
        'export async function topUp(sequelize, id, amount) {',
        '  await sequelize.transaction(async (transaction) => {',
        '    const wallet = await Wallet.findByPk(id, { transaction });',
        '    wallet.balance = wallet.balance + amount;',
        '    await wallet.save({ transaction });',
        '  });',
        '}',
      ),
      errors: [error('sequelize', 'balance', 7, 18)],
    },
  ],
});
