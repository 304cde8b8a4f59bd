import cron from 'node-cron';
import { renderNext, reportQueue } from './runner';
import { touchWorker } from './node';

cron.schedule('* * * * *', async () => {
  await renderNext();
});

cron.schedule('* * * * *', async () => {
  await reportQueue();
});

cron.schedule('* * * * *', async () => {
  await touchWorker();
});
