import express from 'express';
import knex from 'knex';
import knexConfig from '../../knexfile.js';

const db = knex(knexConfig[process.env.NODE_ENV ?? 'development']);
const app = express();

app.get('/healthz', (_req, res) => res.json({ ok: true }));

export async function start() {
  await db.migrate.latest();
  app.listen(8080, () => console.log('listening on 8080'));
}
