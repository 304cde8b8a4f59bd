// no-read-then-write through a function of the file that writes one of its parameters as one
// field's value (`async upsert(page, visits) { … .update({ visits }) }`): the argument handed there
// is that field's value, so a value read, changed in JavaScript and handed to it is written back.
// Not reported: a function whose write sends a value of its own, an argument not computed from a
// read, a parameter that only names the row.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

/** Visit tallies kept by page: `written` is what the writer sends, `handed` what `record` hands it (line 14). */
const tallies = (written: string, handed = 'seen + 1') =>
  lines(
    "import knex from 'knex';",
    "const db = knex({ client: 'pg' });",
    'export class VisitTallies {',
    '  async tallyOf(page: string) {',
    "    const row = await db('tallies').where({ page }).first();",
    '    return row.visits;',
    '  }',
    '  async upsert(page: string, visits: number) {',
    `    await db('tallies').where({ page }).update(${written});`,
    '  }',
    '  async record(page: string) {',
    '    const seen = await this.tallyOf(page);',
    "    if (seen === undefined) throw new Error('no tally');",
    `    return this.upsert(page, ${handed});`,
    '  }',
    '}',
  );

/** The same with a module function and Drizzle: `upsert` writes `score` (line 9). */
const scores = (handed: string) =>
  lines(
    "import { eq } from 'drizzle-orm';",
    "import { boards } from './schema';",
    "import { db } from './db';",
    'async function upsert(team: string, score: number) {',
    '  await db.update(boards).set({ score: score as number }).where(eq(boards.team, team));',
    '}',
    'export async function addGoal(team: string, points: number) {',
    '  const [board] = await db.select().from(boards).where(eq(boards.team, team));',
    `  await upsert(team, ${handed});`,
    '}',
  );

ruleTester.run('no-read-then-write (a parameter written as one field)', rule, {
  valid: [
    // the writer sends a value of its own
    tallies('{ visits: 0 }'),
    // an argument not computed from a read
    tallies('{ visits }', '1'),
    // the parameter only names the row
    tallies("{ page: visits, checkedAt: 'now' }", 'page'),
    scores('points'),
  ],
  invalid: [
    { code: tallies('{ visits }'), errors: [{ messageId: 'knex', data: { field: 'visits' }, line: 14, column: 17 }] },
    { code: tallies('{ visits: visits }', 'Number(seen) + 2'), errors: [{ messageId: 'knex', line: 14, column: 17 }] },
    { code: scores('board.score + points'), errors: [{ messageId: 'drizzle', data: { field: 'score' }, line: 9, column: 9 }] },
  ],
});
