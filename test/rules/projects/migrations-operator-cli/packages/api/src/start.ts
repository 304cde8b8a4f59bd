import { migrateLegacySettings, migrateSearchIndex } from './upkeep';

export async function start(store: Parameters<typeof migrateLegacySettings>[0]) {
  await migrateLegacySettings(store);
  await migrateSearchIndex(process.env.DATABASE_URL!);
}
