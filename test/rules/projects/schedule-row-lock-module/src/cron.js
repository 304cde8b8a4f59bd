import cron from 'node-cron';
const settleLedgers = require('./jobs/settle-ledgers');
const closeHolds = require('./jobs/close-holds');
const rebillPlans = require('./jobs/rebill-plans');
const pruneCarts = require('./jobs/prune-carts');

cron.schedule('*/5 * * * *', () => {
  console.log('settling');
  settleLedgers();
});
cron.schedule('*/5 * * * *', () => closeHolds());
cron.schedule('0 * * * *', () => {
  rebillPlans();
});
cron.schedule('0 * * * *', () => pruneCarts());
