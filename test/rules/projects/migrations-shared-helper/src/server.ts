import express from 'express';
import { migrateLatest } from './db/schema';
import { migrateToLatest } from './db/migrate';
import { prepareStore } from './db/warmup';

const app = express();
await migrateLatest();
await migrateToLatest();
await prepareStore();
app.listen(3000);
