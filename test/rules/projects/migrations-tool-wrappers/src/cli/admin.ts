import { Command } from 'commander';
import { applySchema, revertLast } from '../db/schema';

const program = new Command('admin');
program.command('db:revert').action(async () => revertLast());
program.command('db:apply').action(async () => applySchema());
program.parse();
