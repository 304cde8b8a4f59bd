import { AsyncTask, SimpleIntervalJob, ToadScheduler } from 'toad-scheduler';
import { warehouseClient } from '../clients/warehouse';
import { inventory } from '../inventory';

const scheduler = new ToadScheduler();

const syncStock = new AsyncTask(
  'sync-stock',
  async () => {
    const levels = await warehouseClient.stockLevels();
    await inventory.applyLevels(levels);
  },
  (err: Error) => console.error('stock sync failed', err),
);

scheduler.addSimpleIntervalJob(new SimpleIntervalJob({ minutes: 10 }, syncStock));

export { scheduler };
