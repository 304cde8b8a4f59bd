// The timer is set inside the exported starter; the leader calls it through a namespace import.
import { pool } from '../db';

export const startRetention = (): void => {
  setInterval(async () => {
    await pool.query("DELETE FROM sessions WHERE expires_at < now()");
  }, 60_000);
};
