// no-read-then-write when the read and the write are calls of the project's own data-access objects
// and helpers: a write helper whose name chains the write after another step
// (`recordEntryAndUpdateTokens({ walletId, credits })`), a private one (`this._updateJobState(id,
// 'done', { tries })`: the object's fields are what it writes), a field written under its holder's
// name and its own (`purse.amount` sent as `purseAmount`), and a value a helper reads inside a
// `try` and hands back from deep in its result (`return res.rows[0].credits`), written back by the
// helper named for it or for its end (`getTeamTokens`, then `updateTokens`). Not reported: the
// request's value, a chained helper named for an atomic change, another field's value, a helper
// that reads nothing. A report that runs from a computation far above the write runs on to the
// line that sends the changed field.
import { noReadThenWrite } from '../../rules/no-read-then-write.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const error = (messageId: 'sql' | 'mongoose', field: string, line: number, column: number) => ({
  messageId,
  data: { field },
  line,
  column,
});

/** A purse loaded by one repository, then `write` sent through another's chained helper. */
const topUp = (value: string, write = 'recordEntryAndUpdateTokens') =>
  lines(
    "import { PurseRepository } from '../repositories/purse-repository';",
    "import { EntryRepository } from '../repositories/entry-repository';",
    'export class TopUpPurse {',
    '  constructor(private readonly purses: PurseRepository, private readonly entryRepository: EntryRepository) {}',
    '  async run(purseId: number, amount: number) {',
    '    const { purse, holder } = await this.purses.findById(purseId);',
    "    if (!purse) throw new Error('no purse');",
    `    const next = ${value};`,
    `    await this.entryRepository.${write}({ purseId: holder.id, purseAmount: next });`,
    '    return next;',
    '  }',
    '}',
  );

/** Failed jobs read by SQL, each retried and written back through the class's private helper. */
const retry = (extra: string) =>
  lines(
    "import { db } from '../db';",
    'export class TaskLoop {',
    '  async retryFailed() {',
    "    const result = await db.query(`SELECT * FROM jobs WHERE state = 'failed' LIMIT 20`);",
    '    for (const job of result.rows) {',
    `      await this._updateJobState(job.id, 'done', ${extra});`,
    '    }',
    '  }',
    '  async _updateJobState(id: number, state: string, extra: Record<string, unknown> = {}) {',
    '    const names = Object.keys(extra).map((key, i) => `${key} = $${i + 2}`);',
    "    await db.query(`UPDATE jobs SET state = $1, ${names.join(', ')} WHERE id = $${names.length + 2}`, [state, ...Object.values(extra), id]);",
    '  }',
    '}',
  );

/** Credits read by a helper that hands back one column from inside a `try`, then `write`. */
const spend = (returned: string, write: string) =>
  lines(
    "import { pool } from '../db';",
    'export async function getTeamTokens(teamId: number): Promise<number> {',
    '  try {',
    '    const res = await pool.query(`SELECT credits FROM teams WHERE id = $1`, [teamId]);',
    `    return ${returned};`,
    '  } catch (err) {',
    "    throw new Error('credits unavailable');",
    '  }',
    '}',
    'export async function updateTokens(teamId: number, credits: number) {',
    '  await pool.query(`UPDATE teams SET credits = $1 WHERE id = $2`, [credits, teamId]);',
    '}',
    'export async function spendCredits(teamId: number, cost: number) {',
    '  const current = await getTeamTokens(teamId);',
    "  if (current < cost) throw new Error('not enough credits');",
    `  return ${write};`,
    '}',
  );

/** Points changed far above a Mongo update whose values are written out over several lines. */
const pointsGiven = (field: string) =>
  lines(
    "import mongoose from 'mongoose';",
    "const Member = mongoose.model('Member');",
    'export async function reward(memberId: string, badge: string) {',
    '  const member = await Member.findById(memberId);',
    '  member.points += 10;',
    "  console.log('one');",
    "  console.log('two');",
    "  console.log('three');",
    '  member.badge = badge;',
    '  await Member.updateOne(',
    '    { _id: member._id },',
    '    {',
    '      badge: member.badge,',
    `      ${field}: member.${field},`,
    '    },',
    '  );',
    '}',
  );

ruleTester.run('no-read-then-write (repository and use-case helpers)', noReadThenWrite, {
  valid: [
    topUp('amount'),
    topUp('purse.amount + amount', 'recordEntryAndIncrementCredits'),
    lines(topUp('purse.amount + amount').replace('purseAmount: next', 'bonusAmount: next')),
    retry('{ note: `retried` }'),
    retry('{ tries: 0 }'),
    spend("'unknown'.length", 'await updateTokens(teamId, current - cost)'),
    spend('res.rows[0].credits || 0', 'await updateTokens(teamId, cost)'),
  ],
  invalid: [
    // the write chained after another step, the field under its holder's name and its own
    { code: topUp('purse.amount + amount'), errors: [error('mongoose', 'purseAmount', 9, 32)] },
    // a private helper handed the row's key, a state word and the fields it writes
    { code: retry('{ tries: job.tries + 1 }'), errors: [error('sql', 'tries', 6, 18)] },
    // a column handed back from inside the helper's `try`, written back by the helper named for it
    { code: spend('res.rows[0].credits || 0', 'await updateTokens(teamId, current - cost)'), errors: [error('sql', 'tokens', 16, 16)] },
    // the report runs from the change on to the line that sends the field
    { code: pointsGiven('points'), errors: [{ messageId: 'mongoose', data: { field: 'points' }, line: 5, endLine: 14 }] },
  ],
});
