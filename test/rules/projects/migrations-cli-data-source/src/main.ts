import { createServer } from 'node:http';
import { appSource } from './database/app-source';

await appSource.initialize();
createServer((_req, res) => res.end('ok')).listen(3000);
