import { Pool } from 'pg';

const pool = new Pool();

export async function spend(id: string, amount: number) {
  const { rows } = await pool.query('select balance from wallets where id = $1', [id]);
  const balance = rows[0].balance - amount;
  await pool.query('update wallets set balance = $1 where id = $2', [balance, id]);
}
