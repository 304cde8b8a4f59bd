// Invoicing: issue the invoices that are due. Every second for the demo; a real service runs this
// nightly ('0 2 * * *').
import cron from 'node-cron';
import { redis } from '../redis.js';
import { recordSideEffect } from '../side-effects.js';

export function startInvoicing() {
  return cron.schedule(
    '*/1 * * * * *',
    async () => {
      const number = await redis.incr('billing:invoice-number');
      recordSideEffect('invoice', { number });
    },
    { name: 'issue-invoices' },
  );
}
