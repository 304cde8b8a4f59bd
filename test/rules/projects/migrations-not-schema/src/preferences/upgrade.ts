import { readFile, writeFile } from 'node:fs/promises';

type Preferences = Record<string, unknown>;

const steps: Array<(prefs: Preferences) => Preferences> = [
  (prefs) => ({ ...prefs, theme: prefs.darkMode ? 'dark' : 'light' }),
  (prefs) => ({ ...prefs, locale: prefs.language ?? 'en' }),
];

// Migrates the keys of a preferences file on this host: no database in sight.
export async function runMigrations(prefs: Preferences, file: string): Promise<Preferences> {
  const upgraded = steps.reduce((current, step) => step(current), prefs);
  if (JSON.stringify(upgraded) !== JSON.stringify(prefs)) await writeFile(file, JSON.stringify(upgraded, null, 2));
  return upgraded;
}

export async function loadRaw(file: string): Promise<Preferences> {
  return JSON.parse(await readFile(file, 'utf8')) as Preferences;
}
