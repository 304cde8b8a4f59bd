// Leader election on a session advisory lock held by one dedicated connection.
import { pool } from '../db';
import { startDigestJobs } from '../jobs/digests';
import * as retention from '../jobs/retention';
import { startInvoiceJobs } from '../jobs/invoices';
import { startExportJobs } from '../jobs/exports';

export class LeaderElection {
  async campaign(): Promise<void> {
    const client = await pool.connect();
    const { rows } = await client.query('SELECT pg_try_advisory_lock($1) AS acquired', [4242]);
    if (!rows[0].acquired) {
      client.release();
      return;
    }
    startDigestJobs(console);
    retention.startRetention();
    startInvoiceJobs();
    startExportJobs();
  }

  warmUp(): void {
    // Runs on every replica at start-up, before any lock.
    startExportJobs();
  }
}
