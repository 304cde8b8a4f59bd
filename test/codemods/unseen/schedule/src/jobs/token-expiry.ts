import { CronJob } from 'cron';
import { tokens } from '../auth/tokens';

export function startTokenExpiry(): CronJob {
  return CronJob.from({
    cronTime: '*/5 * * * *',
    onTick: async () => {
      await tokens.revokeExpired();
    },
    start: true,
    timeZone: 'UTC',
  });
}
