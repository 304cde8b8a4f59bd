import { Command } from 'commander';
import { updateDb } from './db-utils';

const program = new Command('sheets');
program.command('db:migrate').action(async () => {
  await updateDb();
});
program.parse();
