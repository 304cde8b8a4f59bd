// The files a package's `migrate` scripts run (`"db:migrate": "tsx src/db/migrate.ts"`,
// `"migrate": "node dist/migrate.js"`): each is a migrate entrypoint, whatever it is called. Read
// from the nearest package.json above the linted file, once per package.json (by mtime, looked at
// no more than once a second: a lint run asks for every file, an editor re-lint after a change
// to package.json a moment later), and never throwing: a missing or broken package.json means no
// such files.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { MIGRATE_SCRIPT_NAME } from '../../src/knowledge/migrators.js';

const SOURCE_EXTENSION = /\.(?:[cm]?[jt]sx?)$/;
/** Build output folders whose files come from `src/` (`node dist/migrate.js` runs `src/migrate.ts`). */
const BUILD_FOLDER = /^(?:dist|build|lib|out)\//;
const MAX_LEVELS = 8;

/** How long a package.json's scripts are trusted before its mtime is looked at again. */
const RECHECK_AFTER_MS = 1000;
/** The stems of a package.json's migrate scripts, and the directories that hold them (most files' directory holds none). */
interface ScriptStems {
  stems: ReadonlySet<string>;
  directories: ReadonlySet<string>;
}
const NO_STEMS: ScriptStems = { stems: new Set(), directories: new Set() };
const cache = new Map<string, { mtimeMs: number; checkedAt: number; stems: ScriptStems }>();
/** The nearest package.json of each directory asked about. */
const nearest = new Map<string, string | undefined>();

/** Path without its extension, with `/` separators: what a script names and a source file are compared by. */
const stemOf = (path: string): string => path.replace(/\\/g, '/').replace(SOURCE_EXTENSION, '');

/** The file-like words of a command line (`tsx ./src/migrate.ts --up` → `src/migrate.ts`). */
export function scriptFileArguments(command: string): string[] {
  return command
    .split(/\s+|&&|\|\||;/)
    .map((word) => word.replace(/^['"]|['"]$/g, ''))
    .filter((word) => !word.startsWith('-') && (SOURCE_EXTENSION.test(word) || /^\.{0,2}\/|\//.test(word)) && !word.includes('='))
    .map((word) => word.replace(/^\.\//, ''));
}

/** Path stems (absolute, no extension) of the files the migrate scripts in `packageJson` run. */
export function migrateScriptStems(packageJson: string): ReadonlySet<string> {
  return scriptStemsOf(packageJson).stems;
}

function scriptStemsOf(packageJson: string): ScriptStems {
  const cached = cache.get(packageJson);
  const now = Date.now();
  if (cached && now - cached.checkedAt < RECHECK_AFTER_MS) return cached.stems;
  try {
    const { mtimeMs } = statSync(packageJson);
    if (cached?.mtimeMs === mtimeMs) {
      cached.checkedAt = now;
      return cached.stems;
    }
    const scripts = (JSON.parse(readFileSync(packageJson, 'utf8')) as { scripts?: Record<string, unknown> }).scripts ?? {};
    const root = dirname(packageJson);
    const stems = new Set<string>();
    for (const [name, command] of Object.entries(scripts)) {
      if (!MIGRATE_SCRIPT_NAME.test(name) || typeof command !== 'string') continue;
      for (const file of scriptFileArguments(command)) {
        stems.add(stemOf(resolve(root, file)));
        if (BUILD_FOLDER.test(file)) stems.add(stemOf(resolve(root, file.replace(BUILD_FOLDER, 'src/'))));
      }
    }
    const found =
      stems.size === 0 ? NO_STEMS : { stems, directories: new Set([...stems].map((stem) => stem.slice(0, stem.lastIndexOf('/')))) };
    cache.set(packageJson, { mtimeMs, checkedAt: now, stems: found });
    return found;
  } catch {
    cache.set(packageJson, { mtimeMs: Number.NaN, checkedAt: now, stems: NO_STEMS });
    return NO_STEMS;
  }
}

function nearestPackageJson(directory: string): string | undefined {
  // One lookup for a directory seen before (every file after the first of its directory).
  const known = nearest.get(directory);
  if (known !== undefined || nearest.has(directory)) return known;
  let found: string | undefined;
  let current = directory;
  // The directories walked through have the same answer: a sibling folder's files stop there.
  const walked: string[] = [];
  let settled = false;
  for (let level = 0; level < MAX_LEVELS; level++) {
    if (nearest.has(current)) {
      found = nearest.get(current);
      settled = true;
      break;
    }
    walked.push(current);
    const candidate = join(current, 'package.json');
    try {
      if (statSync(candidate, { throwIfNoEntry: false })?.isFile()) {
        found = candidate;
        settled = true;
        break;
      }
    } catch {
      // Not here: one level up.
    }
    const parent = dirname(current);
    settled = parent === current;
    if (settled) break;
    current = parent;
  }
  // Past MAX_LEVELS the walk gave up: only the first directory has that answer.
  for (const walkedDirectory of settled ? walked : walked.slice(0, 1)) nearest.set(walkedDirectory, found);
  return found;
}

/** An absolute POSIX path that `resolve` would return unchanged (no `.`/`..` segments, no doubled or trailing `/`). */
const isPlainAbsolute = (path: string): boolean =>
  path.startsWith('/') && !path.includes('/.') && !path.includes('//') && !path.endsWith('/') && !path.includes('\\');

/**
 * The directory of the file asked about last, and its nearest package.json: a lint goes folder by
 * folder, so most files share the directory of the file before and their role needs no path work.
 */
let lastDirectory: string | undefined;
let lastPackageJson: string | undefined;

/** Whether `filename` lies directly in the directory asked about last (compared in place, no copy). */
const inLastDirectory = (filename: string): boolean =>
  lastDirectory !== undefined && filename.lastIndexOf('/') === lastDirectory.length && filename.startsWith(lastDirectory);

/** Whether a `migrate` script of the nearest package.json runs `filename` (absolute). */
export function isRunByMigrateScript(filename: string): boolean {
  if (!filename || filename.startsWith('<')) return false;
  let directory: string;
  let packageJson: string | undefined;
  if (inLastDirectory(filename)) {
    directory = lastDirectory!;
    packageJson = lastPackageJson;
  } else {
    // Linters pass absolute paths: those need no `resolve`, and their directory is a slice.
    const plain = isPlainAbsolute(filename);
    directory = plain ? filename.slice(0, Math.max(1, filename.lastIndexOf('/'))) : dirname(resolve(filename));
    packageJson = nearestPackageJson(directory);
    lastDirectory = plain && directory.length > 1 ? directory : undefined;
    lastPackageJson = packageJson;
  }
  if (packageJson === undefined) return false;
  // The package.json is still looked at (its scripts by mtime, once a second): an edit to it counts.
  const { stems, directories } = scriptStemsOf(packageJson);
  // A stem is compared only in a directory that holds one (stems use `/` separators).
  return stems.size > 0 && directories.has(directory.replace(/\\/g, '/')) && stems.has(stemOf(resolve(filename)));
}
