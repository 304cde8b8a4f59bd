// no-read-then-write when the read and the write sit in helpers of the project: a row returned by a
// finder of the class as a copy (`return { ...rows[0], extra }`) or settled by `Promise.all(rows)`,
// then written back as its old value plus an amount, is a lost update like the row read in place.
// Not reported: a finder that builds its object from values of its own, a value not made from the
// field's own.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];
const error = (messageId: string, field: string, line: number, column: number) => ({ messageId, data: { field }, line, column });

/** A service whose finder returns `returned` built from the newest row; `credit` writes `written` back (line 13). */
const ledger = (returned: string, written: string) =>
  lines(
    "import { Repository } from 'typeorm';",
    'export class LedgerService {',
    '  constructor(private readonly ledgerRepository: Repository<Ledger>) {}',
    '  async newest() {',
    "    const rows = await this.ledgerRepository.find({ where: { open: true }, order: { createdAt: 'DESC' }, take: 1 });",
    '    if (!rows.length) return null;',
    `    return ${returned};`,
    '  }',
    '  async credit(amount: number) {',
    '    const ledger = await this.newest();',
    "    if (!ledger) throw new Error('no ledger');",
    '',
    `    await this.ledgerRepository.update(ledger.id, { fees: ${written} });`,
    '  }',
    '}',
  );

ruleTester.run('no-read-then-write (reads and writes through helpers)', rule, {
  valid: [
    // the finder builds an object of its own values
    ledger('{ id: rows[0].id, fees: 0 }', 'ledger.fees + amount'),
    // a value not made from the field's own
    ledger('{ ...rows[0], owner: null }', 'amount'),
  ],
  invalid: [
    { code: ledger('{ ...rows[0], owner: null }', 'ledger.fees + amount'), errors: [error('typeorm', 'fees', 13, 33)] },
    { code: ledger('rows[0]', 'ledger.fees + amount'), errors: [error('typeorm', 'fees', 13, 33)] },
  ],
});

/** Parts reserved through two helpers of the file: `lookup` reads, `updatePart` sends `values` (the write on line 12). */
const parts = (lookup: string, sent: string, send = 'values') =>
  lines(
    "const db = require('../models');",
    'const lookupPart = async (item) => {',
    `  ${lookup}`,
    '};',
    'const updatePart = async (id, values) => {',
    `  await db.part.update(${send}, { where: { id } });`,
    '};',
    'exports.reserve = async (req, res) => {',
    '  for (const item of req.body) {',
    '    const found = await lookupPart(item);',
    `    const next = { remaining: ${sent} };`,
    '    await updatePart(item.partId, next);',
    '  }',
    '  res.send({ ok: true });',
    '};',
  );

/** A wallet module: `fetchWallet` reads the document, `updateWallet` sends the update document it is handed (line 12). */
const wallets = (update: string, send = 'query') =>
  lines(
    "import { walletModel } from './models/wallet';",
    'export async function fetchWallet(ownerId: string) {',
    '  let doc = await walletModel.findOne({ ownerId }).lean().exec();',
    '  if (!doc) doc = await updateWallet(ownerId, {});',
    '  return doc;',
    '}',
    'export async function updateWallet(ownerId: string, query: object) {',
    `  return await walletModel.findOneAndUpdate({ ownerId }, ${send}, { upsert: true, new: true });`,
    '}',
    'export async function dropTickets(ownerId: string, kind: number) {',
    '  const wallet = await fetchWallet(ownerId);',
    `  return await updateWallet(ownerId, ${update});`,
    '}',
  );

const rawLookup =
  "const rows = await db.sequelize.query(`SELECT * FROM parts WHERE id = ${item.partId}`, { type: 'SELECT' });\n  return Promise.all(rows);";

ruleTester.run('no-read-then-write (writes through a helper that sends what it is handed)', rule, {
  valid: [
    // the helper sends values of its own
    parts('return db.part.findAll({ where: { id: item.partId } });', 'found[0].remaining - item.count', '{ touchedAt: new Date() }'),
    // a value not made from the field's own
    parts('return db.part.findAll({ where: { id: item.partId } });', 'item.count'),
    // the database changes the list
    wallets('{ $pull: { tickets: { kind } } }'),
    // the helper sends an update of its own
    wallets('{ $set: { tickets: wallet.tickets.filter((t) => t.kind !== kind) } }', '{ $set: { seenAt: new Date() } }'),
  ],
  invalid: [
    {
      code: parts('return db.part.findAll({ where: { id: item.partId } });', 'found[0].remaining - item.count'),
      errors: [error('sequelize', 'remaining', 12, 11)],
    },
    { code: parts(rawLookup, 'found[0].remaining - item.count'), errors: [error('sql', 'remaining', 13, 11)] },
    {
      code: wallets('{ $set: { tickets: wallet.tickets.filter((t) => t.kind !== kind) } }'),
      errors: [error('mongoose', 'tickets', 12, 16)],
    },
  ],
});
