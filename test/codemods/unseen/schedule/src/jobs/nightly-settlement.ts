import { CronJob } from 'cron';
import { settlementService } from '../services/settlement';

export const settlementJob = new CronJob(
  '0 3 * * *',
  async function () {
    const batch = await settlementService.collectPending();
    await settlementService.settle(batch);
  },
  null,
  true,
  'Europe/Amsterdam',
);
