import { setupDatabase } from '../db/knex';

await setupDatabase();
