import { beforeAll } from 'vitest';
import { migrateSessionColumn } from '../src/startup/session-column';
import { migrateLabelTable } from '../src/startup/labels';

beforeAll(async () => {
  await migrateSessionColumn();
  await migrateLabelTable();
});
