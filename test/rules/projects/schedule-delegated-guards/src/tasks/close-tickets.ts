import { DataSource } from 'typeorm';

const dataSource = new DataSource({ type: 'postgres', url: process.env.DATABASE_URL });

export default {
  name: 'close-tickets',
  async run(): Promise<void> {
    await dataSource.query("UPDATE tickets SET state = 'closed' WHERE idle_since < now() - interval '14 days'");
  },
};
