import cron from 'node-cron';
import { billing } from '../billing';

export const renewalTask = cron.schedule(
  '0 */6 * * *',
  async () => {
    const due = await billing.subscriptionsDueForRenewal();
    for (const subscription of due) {
      await billing.renew(subscription.id);
    }
  },
  { scheduled: true, timezone: 'UTC' },
);
