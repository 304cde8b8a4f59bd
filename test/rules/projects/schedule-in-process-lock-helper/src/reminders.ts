import { CronJob } from 'cron';
import { db } from './lib/db.js';
import * as local from './lib/key-locks.js';
import * as shared from './lib/shared-locks.js';

async function closeStaleCarts(): Promise<void> {
  await db.query("UPDATE carts SET status = 'abandoned' WHERE updated_at < now() - interval '2 days'");
}

CronJob.from({ cronTime: '0 * * * *', onTick: () => local.withLock('carts', closeStaleCarts), start: true });
CronJob.from({ cronTime: '5 * * * *', onTick: () => local.runLocked(closeStaleCarts), start: true });
CronJob.from({ cronTime: '10 * * * *', onTick: () => local.acquireLock('carts', closeStaleCarts), start: true });
CronJob.from({ cronTime: '15 * * * *', onTick: () => shared.withLock('carts', closeStaleCarts), start: true });
CronJob.from({ cronTime: '20 * * * *', onTick: () => shared.runLocked(42, closeStaleCarts), start: true });
