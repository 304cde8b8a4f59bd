// Started by the leader, and also by the server's bootstrap (src/main.ts): every replica runs it.
import { Cron } from 'croner';
import { pool } from '../db';

const charges = new Cron('0 * * * *', { paused: true }, chargeDueInvoices);

export function startInvoiceJobs(): void {
  charges.resume();
}

async function chargeDueInvoices(): Promise<void> {
  await pool.query("UPDATE invoices SET state = 'charged' WHERE due_at < now()");
}
