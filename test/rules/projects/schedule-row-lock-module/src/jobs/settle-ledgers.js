const { pool } = require('../db');

async function settleLedgers() {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT 1 FROM task_gates WHERE name = $1 FOR UPDATE NOWAIT', ['settle-ledgers']);
    await client.query('UPDATE ledgers SET settled = true WHERE due_at < now()');
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
  } finally {
    client.release();
  }
}

module.exports = settleLedgers;
