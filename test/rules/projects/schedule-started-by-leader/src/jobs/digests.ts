// Built stopped at the top level, started by startDigestJobs(): only the leader calls it.
import { CronJob } from 'cron';
import { pool } from '../db';

const hourly = new CronJob('0 * * * *', queueHourlyDigests);
const daily = new CronJob('0 8 * * *', queueDailyDigests, null, false, 'UTC');
// Started as it is built: it runs on every replica whoever calls startDigestJobs().
const weekly = new CronJob('0 8 * * 1', queueWeeklyDigests, null, true, 'UTC');

export function startDigestJobs(logger: Console): void {
  logger.info('digest jobs started');
  hourly.start();
  daily.start();
}

export function stopDigestJobs(): void {
  hourly.stop();
  daily.stop();
  weekly.stop();
}

async function queueHourlyDigests(): Promise<void> {
  await pool.query("INSERT INTO outbox (kind) VALUES ('digest-hourly')");
}

async function queueDailyDigests(): Promise<void> {
  await pool.query("INSERT INTO outbox (kind) VALUES ('digest-daily')");
}

async function queueWeeklyDigests(): Promise<void> {
  await pool.query("INSERT INTO outbox (kind) VALUES ('digest-weekly')");
}
