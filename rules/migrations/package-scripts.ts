// The files a package's `migrate` scripts run (`"db:migrate": "tsx src/db/migrate.ts"`,
// `"migrate": "node dist/migrate.js"`): each is a migrate entrypoint, whatever it is called. Read
// from the nearest package.json above the linted file, once per package.json (by mtime), and
// never throwing: a missing or broken package.json means no such files.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { MIGRATE_SCRIPT_NAME } from '../../src/knowledge/migrators.js';

const SOURCE_EXTENSION = /\.(?:[cm]?[jt]sx?)$/;
/** Build output folders whose files come from `src/` (`node dist/migrate.js` runs `src/migrate.ts`). */
const BUILD_FOLDER = /^(?:dist|build|lib|out)\//;
const MAX_LEVELS = 8;

const cache = new Map<string, { mtimeMs: number; stems: ReadonlySet<string> }>();
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
  try {
    const { mtimeMs } = statSync(packageJson);
    const cached = cache.get(packageJson);
    if (cached?.mtimeMs === mtimeMs) return cached.stems;
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
    cache.set(packageJson, { mtimeMs, stems });
    return stems;
  } catch {
    return new Set();
  }
}

function nearestPackageJson(directory: string): string | undefined {
  if (nearest.has(directory)) return nearest.get(directory);
  let found: string | undefined;
  let current = directory;
  for (let level = 0; level < MAX_LEVELS; level++) {
    const candidate = join(current, 'package.json');
    try {
      if (statSync(candidate).isFile()) {
        found = candidate;
        break;
      }
    } catch {
      // Not here: one level up.
    }
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  nearest.set(directory, found);
  return found;
}

/** Whether a `migrate` script of the nearest package.json runs `filename` (absolute). */
export function isRunByMigrateScript(filename: string): boolean {
  if (!filename || filename.startsWith('<')) return false;
  const packageJson = nearestPackageJson(dirname(resolve(filename)));
  return packageJson !== undefined && migrateScriptStems(packageJson).has(stemOf(resolve(filename)));
}
