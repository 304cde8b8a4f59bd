import express from 'express';
import { loadDatabaseFixtures, openStore, prepareDatabase } from './store';

const start = async (): Promise<void> => {
  const db = openStore(process.env.DATABASE_URL);
  await prepareDatabase(db);
  await loadDatabaseFixtures(db);
  express().listen(3000);
};

start().catch(() => process.exit(1));
