import cron from 'node-cron';
import { sendDigests } from '@app/digests/send-digests';
import { archiveOrders } from '@app/orders/archive';
import { runNightly } from '@app/lib/nightly';
import { rebuildSearchIndex } from '@app/search/rebuild';

cron.schedule('0 7 * * *', sendDigests);
cron.schedule('0 3 * * *', archiveOrders);
cron.schedule('30 3 * * *', () => runNightly('search-index', rebuildSearchIndex));
