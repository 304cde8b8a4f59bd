import { pool } from '../db';
import { logger } from '../logger';

const ROLLUP_LOCK_ID = 740_112;

export async function rollupDailyBalances(day: string): Promise<void> {
  const { rows } = await pool.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [ROLLUP_LOCK_ID]);
  if (!rows[0]?.locked) {
    logger.info('daily rollup already running elsewhere');
    return;
  }
  try {
    await pool.query('INSERT INTO daily_balances (day, account_id, balance) SELECT $1, account_id, sum(amount) FROM entries WHERE day = $1 GROUP BY account_id', [day]);
    logger.info({ day }, 'daily balances rolled up');
  } finally {
    await pool.query('SELECT pg_advisory_unlock($1)', [ROLLUP_LOCK_ID]);
  }
}
