import { Kysely, PostgresDialect } from 'kysely';
import { Pool } from 'pg';
import { TenantMigrator } from './db/tenant-migrator.js';

export async function startTenants(): Promise<void> {
  const shared = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new Pool({ connectionString: process.env.DATABASE_URL }) }) });
  await new TenantMigrator('./migrations/tenants', shared).latest();
}
