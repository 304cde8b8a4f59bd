// The app's server: a package of its own, without Electron. Its timers run at every replica.
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });

setInterval(async () => {
  await pool.query("UPDATE notes SET archived = true WHERE updated_at < now() - interval '1 year'");
}, 60 * 60_000);
