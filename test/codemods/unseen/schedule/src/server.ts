import express from 'express';
import { pool } from './db';
import { logger } from './logger';

const app = express();
const SESSION_SWEEP_MS = 60_000;

app.get('/healthz', (_req, res) => res.send('ok'));

async function purgeExpiredSessions(): Promise<void> {
  const { rowCount } = await pool.query('DELETE FROM sessions WHERE expires_at < now()');
  logger.info({ rowCount }, 'expired sessions purged');
}

app.listen(Number(process.env.PORT ?? 3000), () => {
  logger.info('listening');
  setInterval(purgeExpiredSessions, SESSION_SWEEP_MS);
});
