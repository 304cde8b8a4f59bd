import { CronJob } from 'cron';
import { enqueueDailyDigest } from './queue/digest.js';
import { enqueueReminders } from './queue/reminders.js';

export const jobs = [
  new CronJob('0 6 * * *', enqueueDailyDigest, null, true),
  new CronJob('*/10 * * * *', enqueueReminders, null, true),
];
setInterval(() => void enqueueDailyDigest(), 60 * 60_000);
