// no-unguarded-schedule on a cron that hands one job per customer to the project's own table-backed
// queue with a dedup key (`{ dedupKey }`, `{ dedupeKey }`, BullMQ's `{ deduplication: { id } }`): the queue's unique key keeps one job per
// key however many replicas enqueue it, so a sweep that reads and enqueues so stays quiet, also from a
// same-file function named for a write. The same enqueue without the key is a job per replica, and is reported.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'atelier' } };

/** A nightly invoice run in `name`: each customer read, then one enqueue per customer with `options`. */
const invoiceRun = (options: string, name = 'queueInvoices') =>
  lines(
    "import cron from 'node-cron';",
    "import { jobTable } from './lib/job-table';",
    "import { db } from './lib/db';",
    `async function ${name}() {`,
    "  const customers = await db.customer.findMany({ where: { billing: 'monthly' } });",
    '  for (const customer of customers) {',
    '    const month = new Date().toISOString().slice(0, 7);',
    `    await jobTable.push('render_invoice', customer.id, { month }, ${options});`,
    '  }',
    '}',
    "cron.schedule('0 3 1 * *', async () => {",
    "  console.info('monthly invoices');",
    `  await ${name}();`,
    '});',
  );

ruleTester.run('no-unguarded-schedule: dedup keys', noUnguardedSchedule, {
  valid: [
    { settings, code: invoiceRun('{ priority: 3, dedupKey: `invoice-${customer.id}-${month}` }') },
    { settings, code: invoiceRun('{ dedupeKey: `invoice-${customer.id}-${month}` }') },
    // BullMQ's `deduplication: { id }`, also on a queue the file is handed rather than imports
    { settings, code: invoiceRun('{ deduplication: { id: `invoice-${customer.id}-${month}` } }') },
    // Named for a write (`create…`): its body, one deduplicated enqueue per customer, decides.
    { settings, code: invoiceRun('{ dedupKey: `invoice-${customer.id}-${month}` }', 'createInvoiceJobs') },
  ],
  invalid: [
    guardedReport(settings, invoiceRun('{ priority: 3 }'), {
      line: 11,
      column: 28,
      guard: "  if (!(await claimPeriod('atelier:file-11', { cron: '0 3 1 * *' }))) return;",
      after: 11,
      importAfter: 3,
    }),
    guardedReport(settings, invoiceRun('{ priority: 3 }', 'createInvoiceJobs'), {
      line: 11,
      column: 28,
      guard: "  if (!(await claimPeriod('atelier:file-11', { cron: '0 3 1 * *' }))) return;",
      after: 11,
      importAfter: 3,
    }),
  ],
});
