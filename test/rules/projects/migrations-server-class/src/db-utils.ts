import { DataSource } from 'typeorm';

export const source = new DataSource({ type: 'postgres', url: process.env.DATABASE_URL });

// The server's start and the `db migrate` command both call it.
export async function updateDb(dataSource: DataSource = source): Promise<void> {
  await runMigrations(dataSource);
}

export async function runMigrations(dataSource: DataSource): Promise<void> {
  await dataSource.runMigrations({ transaction: 'all' });
}
