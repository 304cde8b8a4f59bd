// A row lock that ends before the work. `SELECT … FOR UPDATE SKIP LOCKED` holds its locks only until
// its transaction ends: sent on the pool (a module's `pool`, `knex` or `prisma`, a service's
// `this.pool`, a client checked out with no `BEGIN`) it is its own transaction, and committed
// before the rows are published it has let them go as well; a second replica selects the same
// rows. Reported like a read with no lock. Not reported: the select, the work and the mark inside
// one transaction (`BEGIN … COMMIT` around them, a transaction callback's client, a transaction
// handed as an option), or a claim made in one statement (`UPDATE … RETURNING`).
import { ruleTester } from './rule-tester.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];
/** The report at the read; with `markLine`, spanning to the mark on that line, which its message names. */
const claim = (line: number, column: number, column_ = 'sent_at', markLine?: number) => ({
  messageId: 'nonAtomicClaim' as const,
  data: { column: column_, markedAt: markLine === undefined ? '' : ` (at line ${markLine}, where this report ends)` },
  line,
  column,
});

const SELECT = "'SELECT * FROM mail_queue WHERE sent_at IS NULL ORDER BY id LIMIT 20 FOR UPDATE SKIP LOCKED'";
const MARK = "'UPDATE mail_queue SET sent_at = now() WHERE id = $1'";
const LOOP = ['for (const mail of rows) {', '  await smtp.deliver(mail);', `  await CLIENT.query(${MARK}, [mail.id]);`, '}'];
const loopOn = (client: string) => LOOP.map((l) => l.replace('CLIENT', client));

/** A mail relay in a module that makes its pool at the top; `body` is the relay function's. */
const relay = (...body: string[]) =>
  lines("import { Pool } from 'pg';", 'const pool = new Pool();', 'export async function relayMail() {', ...body.map((l) => `  ${l}`), '}');

ruleTester.run('require-atomic-claim: a row lock that ends before the work', rule, {
  valid: [
    // select, deliver and mark in one transaction on a checked-out client
    relay(
      'const client = await pool.connect();',
      'try {',
      "  await client.query('BEGIN');",
      `  const { rows } = await client.query(${SELECT});`,
      ...loopOn('client').map((l) => `  ${l}`),
      "  await client.query('COMMIT');",
      '} finally {',
      '  client.release();',
      '}',
    ),
    // the rows acted on inside the transaction, only counted after its COMMIT
    relay(
      'const client = await pool.connect();',
      "await client.query('BEGIN');",
      `const { rows } = await client.query(${SELECT});`,
      ...loopOn('client'),
      "await client.query('COMMIT');",
      'client.release();',
      'return rows.length;',
    ),
    // a transaction callback's client
    lines(
      "import knex from 'knex';",
      "const db = knex({ client: 'pg' });",
      'export async function relayMail() {',
      '  await db.transaction(async (trx) => {',
      "    const rows = await trx('mail_queue').whereNull('sent_at').limit(20).forUpdate().skipLocked();",
      '    for (const mail of rows) {',
      '      await smtp.deliver(mail);',
      "      await trx('mail_queue').where({ id: mail.id }).update({ sent_at: db.fn.now() });",
      '    }',
      '  });',
      '}',
    ),
    // the module's knex handed the transaction
    lines(
      "import knex from 'knex';",
      "const db = knex({ client: 'pg' });",
      'export async function relayMail(trx) {',
      "  const rows = await db('mail_queue').transacting(trx).whereNull('sent_at').limit(20).forUpdate().skipLocked();",
      '  for (const mail of rows) {',
      '    await smtp.deliver(mail);',
      "    await trx('mail_queue').where({ id: mail.id }).update({ sent_at: db.fn.now() });",
      '  }',
      '}',
    ),
    // claimed in one statement: the rows marked as they are picked
    relay(
      "const { rows } = await pool.query(\"UPDATE mail_queue SET state = 'sending' WHERE id IN (SELECT id FROM mail_queue WHERE state = 'queued' LIMIT 20 FOR UPDATE SKIP LOCKED) RETURNING *\");",
      'for (const mail of rows) {',
      '  await smtp.deliver(mail);',
      '  await pool.query("UPDATE mail_queue SET state = \'sent\' WHERE id = $1", [mail.id]);',
      '}',
    ),
    // a client handed in by the caller: its transaction is the caller's to show
    lines(
      'export async function relayMail(client) {',
      `  const { rows } = await client.query(${SELECT});`,
      ...loopOn('client').map((l) => `  ${l}`),
      '}',
    ),
  ],
  invalid: [
    // on the pool: the statement is its own transaction
    { code: relay(`const { rows } = await pool.query(${SELECT});`, ...loopOn('pool')), errors: [claim(4, 38, 'sent_at', 7)] },
    // a client checked out, but no BEGIN sent on it
    {
      code: relay(
        'const client = await pool.connect();',
        `const { rows } = await client.query(${SELECT});`,
        ...loopOn('client'),
        'client.release();',
      ),
      errors: [claim(5, 40, 'sent_at', 8)],
    },
    // BEGIN … COMMIT around the select alone: the rows are delivered after the locks are gone
    {
      code: relay(
        'const client = await pool.connect();',
        "await client.query('BEGIN');",
        `const { rows } = await client.query(${SELECT});`,
        "await client.query('COMMIT');",
        'client.release();',
        ...loopOn('pool'),
      ),
      errors: [claim(6, 40, 'sent_at', 11)],
    },
    // a service's pool field, and a module's knex
    {
      code: lines(
        'export class MailRelay {',
        '  constructor(private readonly pool: Pool) {}',
        '  async relay() {',
        `    const { rows } = await this.pool.query(${SELECT});`,
        ...loopOn('this.pool').map((l) => `    ${l}`),
        '  }',
        '}',
      ),
      errors: [claim(4, 45, 'sent_at', 7)],
    },
    {
      code: lines(
        "import knex from 'knex';",
        "const db = knex({ client: 'pg' });",
        'export async function relayMail() {',
        "  const rows = await db('mail_queue').whereNull('sent_at').limit(20).forUpdate().skipLocked();",
        '  for (const mail of rows) {',
        '    await smtp.deliver(mail);',
        "    await db('mail_queue').where({ id: mail.id }).update({ sent_at: db.fn.now() });",
        '  }',
        '}',
      ),
      errors: [claim(4, 39, 'sent_at', 7)],
    },
  ],
});

// The rows handed back to the caller from a select whose lock is let go at once: reported at the
// locking clause, with no update in sight (the lock says they were meant to be claimed), also when
// the table and the state column are the caller's to name. Not reported: a client the caller hands
// in, a transaction still open when the rows are returned, a read that asks for no lock, a count.
const ANY_QUEUE = '`SELECT * FROM ${schema}.${table} WHERE ${column} IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`';
/** A batch taker in a module that makes its pool at the top; `body` is the taker's. */
const taker = (...body: string[]) =>
  lines(
    "import { Pool } from 'pg';",
    'const pool = new Pool();',
    'export async function takeBatch(schema: string, table: string, column: string, limit: number) {',
    ...body.map((l) => `  ${l}`),
    '}',
  );
const CHECKED_OUT = (...use: string[]) => [
  'const client = await pool.connect();',
  'try {',
  ...use.map((l) => `  ${l}`),
  '} finally {',
  '  client.release();',
  '}',
];

ruleTester.run('require-atomic-claim: a let-go row lock handed back', rule, {
  valid: [
    // the caller's client, and so its transaction
    lines(
      'export async function takeBatch(client, limit) {',
      `  const { rows } = await client.query(${SELECT}, [limit]);`,
      '  return rows;',
      '}',
    ),
    // BEGIN sent and no COMMIT here: the lock lasts until the caller commits
    taker(...CHECKED_OUT("await client.query('BEGIN');", `const { rows } = await client.query(${ANY_QUEUE}, [limit]);`, 'return rows;')),
    // no lock asked for: a read helper, its caller is judged
    taker("const { rows } = await pool.query('SELECT * FROM mail_queue WHERE sent_at IS NULL LIMIT 20');", 'return rows;'),
    // only a count handed back
    taker(`const result = await pool.query(${ANY_QUEUE}, [limit]);`, 'return result.rowCount;'),
  ],
  invalid: [
    {
      code: taker(...CHECKED_OUT(`const result = await client.query(${ANY_QUEUE}, [limit]);`, 'return result.rows;')),
      errors: [claim(6, 118, 'status')],
    },
    { code: taker(`const { rows } = await pool.query(${SELECT});`, 'return rows;'), errors: [claim(4, 106)] },
    {
      code: lines(
        "import knex from 'knex';",
        "const db = knex({ client: 'pg' });",
        'export function takeMail() {',
        "  return db('mail_queue').whereNull('sent_at').limit(20).forUpdate().skipLocked();",
        '}',
      ),
      errors: [claim(4, 58)],
    },
  ],
});
