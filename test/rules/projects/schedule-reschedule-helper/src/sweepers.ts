import { pool } from '#lib/db.js';
import { later, scheduleNext } from '#lib/timers.js';

async function sweepSessions(): Promise<void> {
  await pool.query('DELETE FROM sessions WHERE expires_at < now()');
  scheduleNext(sweepSessions);
}

async function sweepUploads(): Promise<void> {
  try {
    await pool.query("DELETE FROM uploads WHERE state = 'abandoned'");
  } finally {
    later(sweepUploads);
  }
}

async function recordBoot(): Promise<void> {
  await pool.query('INSERT INTO boots (at) VALUES (now())');
}

setTimeout(sweepSessions, 1_000);
setTimeout(sweepUploads, 2_000);
setTimeout(recordBoot, 0);
