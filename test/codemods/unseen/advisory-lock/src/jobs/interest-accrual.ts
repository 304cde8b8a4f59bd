import { Pool } from 'pg';

const pool = new Pool();
const ACCRUAL_LOCK = 9_900_001;

export async function accrueInterest(): Promise<void> {
  await pool.query('SELECT pg_advisory_lock($1)', [ACCRUAL_LOCK]);
  await pool.query('UPDATE savings SET balance = balance * (1 + rate / 365) WHERE accrued_on < current_date');
  await pool.query('UPDATE savings SET accrued_on = current_date');
  await pool.query('SELECT pg_advisory_unlock($1)', [ACCRUAL_LOCK]);
}
