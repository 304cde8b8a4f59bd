import { Cron } from 'croner';
import { archiveOrdersOlderThan } from '../orders/archive.mjs';

export const archiveJob = new Cron('30 2 * * *', { timezone: 'Europe/London', protect: true }, async () => {
  const archived = await archiveOrdersOlderThan(90);
  console.log(`archived ${archived} orders`);
});
