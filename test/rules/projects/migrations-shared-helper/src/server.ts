import express from 'express';
import { migrateLatest } from './db/schema';
import { migrateToLatest } from './db/migrate';

const app = express();
await migrateLatest();
await migrateToLatest();
app.listen(3000);
