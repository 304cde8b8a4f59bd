import { Command, CommandRunner } from 'nest-commander';
import { db } from '../database';

@Command({ name: 'system:migrate:latest', description: 'Apply the pending migrations' })
export class MigrateLatestCommand extends CommandRunner {
  async run(): Promise<void> {
    await db.migrate.latest();
  }
}
