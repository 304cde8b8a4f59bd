import http from 'node:http';
import { makeLedger } from './store/make-ledger';

const { ledger, prepare } = makeLedger(process.env.LEDGER_URL ?? '');
await prepare();
http.createServer(async (_req, res) => res.end(JSON.stringify(await ledger.execute('select 1')))).listen(8081);
