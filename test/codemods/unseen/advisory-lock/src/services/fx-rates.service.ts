import { DataSource } from 'typeorm';
import { fetchRates } from '../clients/fx';

export class FxRatesService {
  constructor(private readonly dataSource: DataSource) {}

  async refreshRates(): Promise<void> {
    const [lock] = await this.dataSource.query('SELECT pg_try_advisory_lock(4242) AS ok');
    if (!lock.ok) return;
    try {
      const rates = await fetchRates();
      await this.dataSource.query('DELETE FROM fx_rates');
      await this.dataSource.query('INSERT INTO fx_rates (pair, rate) SELECT * FROM unnest($1::text[], $2::numeric[])', [rates.pairs, rates.values]);
    } finally {
      await this.dataSource.query('SELECT pg_advisory_unlock(4242)');
    }
  }
}
