import cron from 'node-cron';
import { expirePoints } from '../loyalty/expire-points';

cron.schedule('0 1 * * *', expirePoints, { timezone: 'America/New_York' });
