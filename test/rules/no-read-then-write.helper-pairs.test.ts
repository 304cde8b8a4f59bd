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

/** A class whose `bump` changes a loaded card by `change` and hands it to `persist`, which runs `store` (the call on line 7). */
const tally = (change: string, store = 'await entry.save();') =>
  lines(
    "const { Card } = require('./models');",
    'class Tally {',
    '  async bump(ownerId, n) {',
    '    const card = await Card.findOne({ ownerId });',
    '    if (!card) return;',
    `    ${change}`,
    '    await this.persist(card);',
    '  }',
    '  async persist(entry) {',
    '    try {',
    `      ${store}`,
    '    } catch (err) {',
    '      console.error(err);',
    '    }',
    '  }',
    '}',
    'module.exports = Tally;',
  );

ruleTester.run('no-read-then-write (a document saved by a function of the file it is handed to)', rule, {
  valid: [
    // a value not made from the field's own
    tally('card.label = `#${n}`;'),
    // the function keeps the document in memory: nothing written
    tally('card.points = card.points + n;', 'this.last = entry;'),
    // the database does the arithmetic
    tally('await Card.updateOne({ ownerId }, { $inc: { points: n } });'),
  ],
  invalid: [
    { code: tally('card.points = card.points + n;'), errors: [error('mongoose', 'points', 7, 16)] },
    { code: tally('card.points += n;'), errors: [error('mongoose', 'points', 7, 16)] },
  ],
});

/** A service handed a player its caller loaded: `change`, then `send` through the injected repository (line 7). */
const scores = (change: string, send = 'return await this.playerRepository.update(player);') =>
  lines(
    "import type { PlayerRepository } from '../db/player-repository';",
    "import type { Player } from '../types/player';",
    'export class ScoreService {',
    '  constructor(private playerRepository: PlayerRepository) {}',
    '  async addWin(player: Player): Promise<Player> {',
    `    ${change}`,
    `    ${send}`,
    '  }',
    '}',
  );

ruleTester.run('no-read-then-write (a row handed in, changed and handed whole to a repository)', rule, {
  valid: [
    // a value not made from the field's own
    scores('player.nickname = player.nickname.trim();'),
    scores('player.lastWinAt = new Date();'),
    // the database does the arithmetic
    scores('await this.playerRepository.increment({ id: player.id }, "wins", 1);', 'return player;'),
    // kept in memory, not written
    scores('player.wins += 1;', 'return player;'),
    // handed to an object that is no data-access object
    scores('player.wins += 1;', 'return await this.scoreboard.update(player);'),
  ],
  invalid: [
    { code: scores('player.wins += 1;'), errors: [error('typeorm', 'wins', 7, 40)] },
    {
      code: scores('player.wins = player.wins + 1;', 'await this.playerRepository.save(player);\n    return player;'),
      errors: [error('typeorm', 'wins', 7, 33)],
    },
  ],
});

/** A visit counted from what `runOf` hands back of the loaded member (`returns`), saved in a `Promise.all` (line 10). */
const visits = (returns: string, change = 'member.visitRun = run + 1;') =>
  lines(
    "import { loadMember } from '../store/members.js';",
    'export function runOf(member: Member): [boolean, number] {',
    `  return ${returns};`,
    '}',
    'export async function visit(id: string, reply: (text: string) => Promise<void>) {',
    '  const member = await loadMember(id);',
    '  const [, run] = runOf(member);',
    `  ${change}`,
    "  await Promise.all([reply('ok'), member.save()]);",
    '}',
  );

ruleTester.run('no-read-then-write (a field handed back by a function of the module)', rule, {
  valid: [
    // a value the function makes of its own
    visits('[false, 0]'),
    visits('[false, String(member.visitRun)]'),
  ],
  invalid: [
    { code: visits('[false, member.visitRun]'), errors: [error('sequelize', 'visitRun', 9, 42)] },
    { code: visits('member.visitRun', 'member.visitRun = runOf(member) + 1;'), errors: [error('sequelize', 'visitRun', 9, 42)] },
  ],
});
