import { send } from './transport';

export async function createNotesTable() {
  await send('CREATE TABLE IF NOT EXISTS notes (id serial primary key, body text)');
}
