import { pool } from '../db';

export class PayoutService {
  async runPayouts(): Promise<{ paid: number }> {
    const { rows } = await pool.query('SELECT pg_try_advisory_lock(77) AS ok');
    if (!rows[0].ok) return { paid: 0 };
    try {
      const due = await pool.query("SELECT id FROM payouts WHERE status = 'due'");
      for (const payout of due.rows) await this.pay(payout.id);
      return { paid: due.rowCount ?? 0 };
    } finally {
      await pool.query('SELECT pg_advisory_unlock(77)');
    }
  }

  private async pay(id: string): Promise<void> {
    await pool.query("UPDATE payouts SET status = 'paid' WHERE id = $1", [id]);
  }
}
