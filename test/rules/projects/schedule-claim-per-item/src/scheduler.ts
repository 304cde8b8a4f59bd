import { Cron } from 'croner';
import { monitored } from './jobs/monitor.js';
import { sendOverdueNotices } from './jobs/overdue-notices.js';
import { sendRenewalNotices } from './jobs/renewal-notices.js';
import { syncSeats } from './jobs/seats.js';

export const jobs = [
  new Cron('*/5 * * * *', monitored('overdue-notices', sendOverdueNotices)),
  new Cron('*/5 * * * *', monitored('renewal-notices', sendRenewalNotices)),
  new Cron('17 * * * *', monitored('seat-sync', syncSeats)),
];
