import http from 'node:http';
import { db } from './store/index';

http.createServer(async (_req, res) => res.end(JSON.stringify(await db.execute('select 1')))).listen(8080);
