import { createServer } from 'node:http';
import { applySchema } from './db/schema';

await applySchema();
createServer((_req, res) => res.end('ok')).listen(3000);
