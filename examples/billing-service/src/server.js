// The billing service: an HTTP health endpoint plus its scheduled jobs. Run it twice and every
// reminder and invoice happens twice — that is the bug replica-guard fixes.
import { createServer } from 'node:http';
import { startInvoicing } from './jobs/invoices.js';
import { startMetricsFlush } from './jobs/metrics.js';
import { startReminderSweep } from './jobs/reminders.js';
import { redis } from './redis.js';

const timers = [startReminderSweep(), startMetricsFlush()];
const invoicing = startInvoicing();

const server = createServer((request, response) => {
  response.writeHead(request.url === '/health' ? 200 : 404, { 'content-type': 'text/plain' });
  response.end(request.url === '/health' ? 'ok\n' : 'not found\n');
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  console.log(`billing-service listening on ${typeof address === 'object' && address ? address.port : address}`);
});

async function shutdown() {
  for (const timer of timers) clearInterval(timer);
  await invoicing.stop();
  server.close();
  await redis.quit().catch(() => {});
  process.exit(0);
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
