// Where schema writes belong: the migrate entrypoint and migration files (globs from settings).
// Three rules ask about the same file, and `create` runs per file per rule, so the answer is
// kept for the file being linted; `matchesAny` compiles the globs once per settings and rejects
// most paths with a string search.
import type { DetectContext } from '../utils/create-rule.js';
import { matchesAny, mayMatchAny, readSettings } from '../../analysis/settings.js';

type Context = DetectContext;

interface FileRole {
  sourceCode: object;
  /** The file's Program node: oxlint reuses one SourceCode object for every file, so it alone tells files apart. */
  ast: object;
  migrateEntrypoint: boolean;
  migrationFile: boolean;
  /** A `#!` script. */
  script: boolean;
}

/** The last file's role: three rules ask in a row. */
let lastRole: FileRole | undefined;

function fileRoleOf(context: Context): FileRole {
  // Each member is read once, and only what the hit needs: the context inherits them from a
  // per-file object, and such reads are slow in a hot path. ESLint parses a file into a new
  // SourceCode for every lint of it (and every fix pass), so one SourceCode means one file,
  // path and configuration.
  const sourceCode = context.sourceCode;
  if (lastRole?.sourceCode === sourceCode && lastRole.ast === sourceCode.ast) return lastRole;
  const settings = readSettings(context.settings);
  const filename = context.filename;
  // The working directory is only needed for a path that holds a glob's literal segment.
  let cwd: string | undefined;
  const matches = (globs: readonly string[]): boolean => mayMatchAny(filename, globs) && matchesAny(filename, (cwd ??= context.cwd), globs);
  lastRole = {
    sourceCode,
    ast: sourceCode.ast,
    migrateEntrypoint: matches(settings.migrateEntrypoints),
    migrationFile: matches(settings.migrationFiles),
    script: sourceCode.text.startsWith('#!'),
  };
  return lastRole;
}

/** Whether the linted file is a migrate entrypoint (`migrateEntrypoints`). */
export function isMigrateEntrypointFile(context: Context): boolean {
  return fileRoleOf(context).migrateEntrypoint;
}

/** Whether the linted file may write schema: a migrate entrypoint, a migration file, or a command-line script. */
export function isMigrationExemptFile(context: Context): boolean {
  // A `#!` script is a command someone runs (a migrate CLI like `knex migrate:latest`), not the
  // server every replica starts.
  const role = fileRoleOf(context);
  return role.script || role.migrateEntrypoint || role.migrationFile;
}
