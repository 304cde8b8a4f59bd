import cron from 'node-cron';
import purgeUploads from './tasks/purge-uploads';
import closeTickets from './tasks/close-tickets';
import * as tasks from './tasks';
import { dropStaleEntries } from './sessions/local-cache';

cron.schedule('*/10 * * * *', () => purgeUploads.run());
cron.schedule('0 * * * *', () => closeTickets.run());
cron.schedule('5 * * * *', () => tasks.purgeUploads.run());
cron.schedule('15 * * * *', () => tasks.closeTickets.run());
setInterval(() => dropStaleEntries(), 600_000);
cron.schedule('30 * * * *', () => dropStaleEntries());
