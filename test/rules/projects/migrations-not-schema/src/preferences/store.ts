import { loadRaw, runMigrations } from './upgrade';

const FILE = process.env.PREFERENCES_FILE ?? './preferences.json';

export async function loadPreferences() {
  const raw = await loadRaw(FILE);
  return runMigrations(raw, FILE);
}
