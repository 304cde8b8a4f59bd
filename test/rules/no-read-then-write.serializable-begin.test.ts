// no-read-then-write on a connection that opened a SERIALIZABLE transaction in SQL before the read
// (`BEGIN ISOLATION LEVEL SERIALIZABLE`): the second writer fails instead of losing an update. Still
// reported: a plain BEGIN, the transaction committed between the read and the write, a BEGIN on
// another connection.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

/** A pg connection: `begin` sent first, the shelf's slots read (line 5) and written back (line 7). */
const restock = (begin: string, between = "const note = 'restock';", on = 'conn') =>
  lines(
    'export async function restock(pool, shelfId: number, added: number) {',
    '  const conn = await pool.connect();',
    '  try {',
    `    await ${on}.query('${begin}');`,
    "    const { rows } = await conn.query('SELECT slots FROM shelves WHERE id = $1', [shelfId]);",
    `    ${between}`,
    "    await conn.query('UPDATE shelves SET slots = $1 WHERE id = $2', [rows[0].slots + added, shelfId]);",
    "    await conn.query('COMMIT');",
    '  } finally {',
    '    conn.release();',
    '  }',
    '}',
  );

const lost = (line: number) => ({ messageId: 'sql', data: { field: 'slots' }, line });

ruleTester.run('no-read-then-write: a SERIALIZABLE transaction opened in SQL', rule, {
  valid: [restock('BEGIN ISOLATION LEVEL SERIALIZABLE'), restock('START TRANSACTION ISOLATION LEVEL SERIALIZABLE')],
  invalid: [
    { code: restock('BEGIN'), errors: [lost(7)] },
    { code: restock('BEGIN ISOLATION LEVEL SERIALIZABLE', "await conn.query('COMMIT');"), errors: [lost(7)] },
    { code: restock('BEGIN ISOLATION LEVEL SERIALIZABLE', undefined, 'pool'), errors: [lost(7)] },
  ],
});
