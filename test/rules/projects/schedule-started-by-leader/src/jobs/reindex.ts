// Started at once inside its starter; both callers run it only under a lease or on election.
import { CronJob } from 'cron';
import { pool } from '../db';

export function startReindex(): CronJob {
  return new CronJob('*/5 * * * *', rebuildSearchIndex, null, true);
}

async function rebuildSearchIndex(): Promise<void> {
  await pool.query('UPDATE documents SET search_vector = to_tsvector(body) WHERE dirty');
}
