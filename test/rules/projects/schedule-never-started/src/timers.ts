import { CronJob } from 'cron';
import { pool } from './db';

export const nightlyRollup = new CronJob('0 1 * * *', async () => {
  await pool.query('UPDATE ledger SET rolled_up = true WHERE day < current_date');
});

export const weeklyPrune = new CronJob('0 4 * * 0', async () => {
  await pool.query('DELETE FROM audit_trail WHERE at < now() - interval $1', ['90 days']);
});

export const spareReindex = new CronJob('30 2 * * *', async () => {
  await pool.query('REINDEX TABLE ledger');
});
