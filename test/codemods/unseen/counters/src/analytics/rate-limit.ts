import { pool } from '../db';

export async function consumeQuota(apiKey: string): Promise<number> {
  const { rows } = await pool.query('SELECT used FROM api_quotas WHERE api_key = $1', [apiKey]);
  const used = rows[0].used + 1;
  await pool.query('UPDATE api_quotas SET used = $1 WHERE api_key = $2', [used, apiKey]);
  return used;
}
