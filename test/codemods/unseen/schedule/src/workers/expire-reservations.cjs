const { CronJob } = require('cron');

module.exports = function startReservationExpiry(db, log) {
  const job = new CronJob('*/10 * * * *', async () => {
    const result = await db.query("UPDATE reservations SET status = 'expired' WHERE status = 'held' AND held_until < now()");
    log.info({ expired: result.rowCount }, 'reservations expired');
  });
  job.start();
  return job;
};
