import cron from 'node-cron';
import { Pool } from 'pg';

const pool = new Pool();

cron.schedule('0 8 * * *', async () => {
  await pool.query('update users set digest_sent_at = now() where digest_due');
});

setInterval(async () => {
  await fetch('https://hooks.example.test/ping', { method: 'POST' });
}, 60_000);

const seen = new Map<string, number>();
setInterval(() => seen.clear(), 30_000);
