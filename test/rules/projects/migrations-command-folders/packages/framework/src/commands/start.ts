import { createServer } from 'node:http';
import { db } from '../database';

// `acme start`: a command that starts the server itself.
export default async function start() {
  await db.migrate.latest();
  createServer((_req, res) => res.end('ok')).listen(9000);
}
