import type { Sequelize } from 'sequelize';

/** The product catalogue, mirrored from the supplier's feed: its `sync()` copies rows, it writes no schema. */
export class Catalog {
  constructor(private readonly sequelize: Sequelize) {}

  async sync(): Promise<number> {
    const [rows] = await this.sequelize.query('SELECT count(*) FROM products');
    return rows.length;
  }
}
