const { pool } = require('../db');

module.exports = async function pruneCarts() {
  const client = await pool.connect();
  const other = await pool.connect();
  try {
    await client.query('BEGIN');
    await other.query('SELECT 1 FROM task_gates WHERE name = $1 FOR UPDATE NOWAIT', ['prune-carts']);
    await client.query('DELETE FROM carts WHERE touched_at < now() - interval \'30 days\'');
    await client.query('COMMIT');
  } finally {
    client.release();
    other.release();
  }
};
