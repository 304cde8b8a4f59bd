import knex from 'knex';
import { createSchemaTools, makeMigrationTools, migrateDatabaseLocked, prepareSchema } from './db/schema-tools';

export class Database {
  readonly connection = knex({ client: 'pg', connection: process.env.DATABASE_URL });
  readonly schema = createSchemaTools(this.connection);
  readonly migrations = makeMigrationTools(this.connection);

  async start(withLock: (fn: () => Promise<void>) => Promise<void>) {
    await prepareSchema(this.connection);
    await migrateDatabaseLocked(this.connection, withLock);
  }
}
