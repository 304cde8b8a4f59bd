import { Pool } from 'pg';
import { closeStale } from './tickets';
import { closeStale as closeStaleSockets } from './sockets';

const db = new Pool();

setInterval(() => closeStale(db), 3_600_000);
setInterval(() => closeStaleSockets(), 30_000);
