// Where schema writes belong: the migrate entrypoint and migration files (globs from settings).
import type { RuleContext } from '@typescript-eslint/utils/ts-eslint';
import { matchesAny, readSettings } from './settings.js';

type Context = Readonly<RuleContext<string, readonly unknown[]>>;

/** Whether the linted file is a migrate entrypoint (`migrateEntrypoints`). */
export function isMigrateEntrypointFile(context: Context): boolean {
  const settings = readSettings(context.settings);
  return matchesAny(context.filename, context.cwd, settings.migrateEntrypoints);
}

/** Whether the linted file may write schema: a migrate entrypoint, a migration file, or a command-line script. */
export function isMigrationExemptFile(context: Context): boolean {
  const settings = readSettings(context.settings);
  // A `#!` script is a command someone runs (a migrate CLI like `knex migrate:latest`), not the
  // server every replica starts.
  if (context.sourceCode.text.startsWith('#!')) return true;
  return matchesAny(context.filename, context.cwd, [...settings.migrateEntrypoints, ...settings.migrationFiles]);
}
