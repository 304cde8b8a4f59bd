// Where schema writes belong: the migrate entrypoint and migration files (globs from settings).
// Three rules ask about the same file, and `create` runs per file per rule, so the answer is
// computed once per file path and settings object, with the globs compiled once per settings.
import type { DetectContext } from '../create-rule.js';
import { matchesAny, readSettings, type ReplicaGuardSettings } from './settings.js';

type Context = DetectContext;

interface FileRole {
  migrateEntrypoint: boolean;
  migrationFile: boolean;
}

/** Enough for a large monorepo's files; past it the cache starts over instead of growing in an editor's long-lived process. */
const MAX_CACHED_PATHS = 20_000;
const roles = new WeakMap<ReplicaGuardSettings, Map<string, FileRole>>();

function fileRoleOf(context: Context): FileRole {
  // Each member is read once: the context inherits them from a per-file object, and such reads
  // are slow in a hot path.
  const settings = readSettings(context.settings);
  const filename = context.filename;
  const cwd = context.cwd;
  let byPath = roles.get(settings);
  if (!byPath) roles.set(settings, (byPath = new Map()));
  const key = `${cwd}\0${filename}`;
  let role = byPath.get(key);
  if (!role) {
    if (byPath.size >= MAX_CACHED_PATHS) byPath.clear();
    role = {
      migrateEntrypoint: matchesAny(filename, cwd, settings.migrateEntrypoints),
      migrationFile: matchesAny(filename, cwd, settings.migrationFiles),
    };
    byPath.set(key, role);
  }
  return role;
}

/** Whether the linted file is a migrate entrypoint (`migrateEntrypoints`). */
export function isMigrateEntrypointFile(context: Context): boolean {
  return fileRoleOf(context).migrateEntrypoint;
}

/** Whether the linted file may write schema: a migrate entrypoint, a migration file, or a command-line script. */
export function isMigrationExemptFile(context: Context): boolean {
  // A `#!` script is a command someone runs (a migrate CLI like `knex migrate:latest`), not the
  // server every replica starts.
  if (context.sourceCode.text.startsWith('#!')) return true;
  const role = fileRoleOf(context);
  return role.migrateEntrypoint || role.migrationFile;
}
