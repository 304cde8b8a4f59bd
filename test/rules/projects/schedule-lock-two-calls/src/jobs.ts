import { CronJob } from 'cron';
import { db } from './lib/db.js';
import { runJob, runMarked, timeJob } from './lib/job-runner.js';

async function expireExports(): Promise<void> {
  await db.query("UPDATE export_requests SET status = 'EXPIRED' WHERE expires_at < now()");
}

CronJob.from({ cronTime: '0 * * * *', onTick: () => runJob('expire-exports', expireExports, 600), start: true });
CronJob.from({ cronTime: '30 * * * *', onTick: () => timeJob('expire-exports', expireExports), start: true });
CronJob.from({ cronTime: '45 * * * *', onTick: () => runMarked('expire-exports', expireExports), start: true });
