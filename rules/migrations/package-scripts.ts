// The files a package's `migrate` scripts run (`"db:migrate": "tsx src/db/migrate.ts"`,
// `"migrate": "node dist/migrate.js"`): each is a migrate entrypoint, whatever it is called; and
// the files only its test tooling's scripts run (`"cypress:prepare": "ts-node scripts/seed.ts"`). Read
// from the nearest package.json above the linted file, once per package.json (by mtime, looked at
// no more than once a second: a lint run asks for every file, an editor re-lint after a change
// to package.json a moment later), and never throwing: a missing or broken package.json means no
// such files.
import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { prismaSchemaCommand } from '../../src/knowledge/migrators.js';
import {
  MIGRATE_SCRIPT_NAME,
  MIGRATION_AUTHORING_WORDS,
  MIGRATOR_CLI_COMMAND,
  MIGRATOR_CONFIG_FLAGS,
  TYPEORM_DATA_SOURCE_FLAGS,
} from '../../src/knowledge/migration-scripts.js';
import { COMMAND_FOLDERS, isCommandLinePackage, isOneOffScriptName, isTestScriptName } from '../../src/knowledge/file-conventions.js';
import { nearestPackageJson } from '../../analysis/modules/nearest-package-json.js';

const SOURCE_EXTENSION = /\.(?:[cm]?[jt]sx?)$/;
/** Build output folders whose files come from `src/` (`node dist/migrate.js` runs `src/migrate.ts`). */
const BUILD_FOLDER = /^(?:dist|build|lib|out)\//;

/** How long a package.json's scripts are trusted before its mtime is looked at again. */
const RECHECK_AFTER_MS = 1000;
/** The stems of a package.json's migrate scripts, and the directories that hold them (most files' directory holds none). */
interface ScriptStems {
  stems: ReadonlySet<string>;
  directories: ReadonlySet<string>;
  /**
   * Stems only ever run as a step beside a migrator's own command in the same script
   * (`tsx scripts/fix-names.ts && knex migrate:latest`): the command migrates, the file prepares.
   */
  steps: ReadonlySet<string>;
  /** Stems only ever run by scripts for writing or undoing migrations by hand (`migration:generate`, `migrate:dev`). */
  authoring: ReadonlySet<string>;
  /** Stems only ever run by the test tooling's scripts (`cypress:prepare`, `test:e2e`, `pretest`): test code. */
  testOnly: ReadonlySet<string>;
  /** Stems only ever run by an operator's one-off database chores (`db:truncate`, `db:reset`, `db:seed`). */
  oneOff: ReadonlySet<string>;
  /** Whether the package is a command-line tool (`isCommandLinePackage`). */
  commandLine: boolean;
  /** Whether the package declares a `bin` (published or not): its command folders hold an operator's commands (`isInCommandFolder`). */
  declaresBin: boolean;
  /** Stems of the files a migrator's command is given as its data source (`typeorm migration:run -d src/data-source.ts`). */
  dataSources: ReadonlySet<string>;
}
const NO_STEMS: ScriptStems = {
  stems: new Set(),
  directories: new Set(),
  steps: new Set(),
  authoring: new Set(),
  testOnly: new Set(),
  oneOff: new Set(),
  commandLine: false,
  declaresBin: false,
  dataSources: new Set(),
};

/** Whether a migrate script's name has a segment that makes it an authoring tool (`migration:generate`, `migrate:dev`). */
const isAuthoringScriptName = (name: string): boolean => name.split(':').some((segment) => MIGRATION_AUTHORING_WORDS.includes(segment));

/** Whether a command line runs a migrator's own command (`knex migrate:latest`, `prisma migrate deploy`). */
const runsMigratorCommand = (command: string): boolean =>
  command.split(/&&|\|\||;/).some((part) => MIGRATOR_CLI_COMMAND.test(part) || prismaSchemaCommand(part) !== undefined);
const cache = new Map<string, { mtimeMs: number; checkedAt: number; stems: ScriptStems }>();

/** Path without its extension, with `/` separators: what a script names and a source file are compared by. */
const stemOf = (path: string): string => path.replace(/\\/g, '/').replace(SOURCE_EXTENSION, '');

/**
 * The file-like words of a command line (`tsx ./src/migrate.ts --up` → `src/migrate.ts`); the value
 * of a migrator's configuration flag (`-d src/data-source.ts`) is a file the command reads, not one it runs.
 */
export function scriptFileArguments(command: string): string[] {
  const words = command.split(/\s+|&&|\|\||;/).map((word) => word.replace(/^['"]|['"]$/g, ''));
  return words
    .filter((word, i) => !MIGRATOR_CONFIG_FLAGS.includes(words[i - 1] ?? ''))
    .filter((word) => !word.startsWith('-') && (SOURCE_EXTENSION.test(word) || /^\.{0,2}\/|\//.test(word)) && !word.includes('='))
    .map((word) => word.replace(/^\.\//, ''));
}

/** The values of TypeORM's data-source flag in a command line (`-d src/data-source.ts`, `--dataSource=src/data-source.ts`). */
export function dataSourceArguments(command: string): string[] {
  const words = command.split(/\s+|&&|\|\||;/).map((word) => word.replace(/^['"]|['"]$/g, ''));
  return words.flatMap((word, i) => {
    const flag = TYPEORM_DATA_SOURCE_FLAGS.find((f) => word.startsWith(`${f}=`));
    if (flag) return [word.slice(flag.length + 1)];
    return TYPEORM_DATA_SOURCE_FLAGS.includes(words[i - 1] ?? '') && SOURCE_EXTENSION.test(word) ? [word] : [];
  });
}

/** The stems (absolute, no extension) of the files a command line runs; a build output's file also names its `src/` source. */
function commandStems(root: string, command: string): string[] {
  return scriptFileArguments(command).flatMap((file) => {
    const stem = stemOf(resolve(root, file));
    return BUILD_FOLDER.test(file) ? [stem, stemOf(resolve(root, file.replace(BUILD_FOLDER, 'src/')))] : [stem];
  });
}

/**
 * The stems only scripts of one kind run (`isKind`: the test tooling's, `isTestScriptName`; an
 * operator's one-off database chores, `isOneOffScriptName`): a script of that kind that another
 * script runs by name (`npm run cypress:prepare && node server.js`) counts as that script's.
 */
function stemsOnlyRunBy(root: string, scripts: ReadonlyArray<[string, string]>, isKind: (name: string) => boolean): ReadonlySet<string> {
  const others = scripts.filter(([name]) => !isKind(name));
  const words = new Set(others.flatMap(([, command]) => command.split(/\s+|&&|\|\||;/)));
  const byKind = new Set<string>();
  const byOther = new Set<string>();
  for (const [name, command] of scripts)
    for (const stem of commandStems(root, command)) (isKind(name) && !words.has(name) ? byKind : byOther).add(stem);
  return new Set([...byKind].filter((stem) => !byOther.has(stem)));
}

/** Path stems (absolute, no extension) of the files the migrate scripts in `packageJson` run. */
export function migrateScriptStems(packageJson: string): ReadonlySet<string> {
  return scriptStemsOf(packageJson).stems;
}

function scriptStemsOf(packageJson: string): ScriptStems {
  return scriptEntryOf(packageJson).stems;
}

/** The cache entry of a package.json's scripts, read again when its mtime changed (looked at once a second). */
function scriptEntryOf(packageJson: string): { checkedAt: number; stems: ScriptStems } {
  const cached = cache.get(packageJson);
  const now = Date.now();
  if (cached && now - cached.checkedAt < RECHECK_AFTER_MS) return cached;
  try {
    const { mtimeMs } = statSync(packageJson);
    if (cached?.mtimeMs === mtimeMs) {
      cached.checkedAt = now;
      return cached;
    }
    const manifest = JSON.parse(readFileSync(packageJson, 'utf8')) as { scripts?: Record<string, unknown> } | null;
    const scripts = Object.entries(manifest?.scripts && typeof manifest.scripts === 'object' ? manifest.scripts : {}).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    );
    const commandLine = manifest !== null && typeof manifest === 'object' && isCommandLinePackage(manifest);
    const root = dirname(packageJson);
    const stems = new Set<string>();
    const besideMigrator = new Set<string>();
    const alone = new Set<string>();
    const byAuthoring = new Set<string>();
    const byDeploy = new Set<string>();
    for (const [name, command] of scripts) {
      if (!MIGRATE_SCRIPT_NAME.test(name)) continue;
      const beside = runsMigratorCommand(command);
      const authoring = isAuthoringScriptName(name);
      for (const stem of commandStems(root, command)) {
        stems.add(stem);
        (beside ? besideMigrator : alone).add(stem);
        (authoring ? byAuthoring : byDeploy).add(stem);
      }
    }
    const steps = new Set([...besideMigrator].filter((stem) => !alone.has(stem)));
    const authoring = new Set([...byAuthoring].filter((stem) => !byDeploy.has(stem)));
    const testOnly = stemsOnlyRunBy(root, scripts, isTestScriptName);
    const oneOff = stemsOnlyRunBy(root, scripts, isOneOffScriptName);
    const directories = new Set([...stems].map((stem) => stem.slice(0, stem.lastIndexOf('/'))));
    const dataSources = new Set(scripts.flatMap(([, command]) => dataSourceArguments(command).map((file) => stemOf(resolve(root, file)))));
    const bin = (manifest as { bin?: unknown } | null)?.bin;
    const declaresBin = (typeof bin === 'string' && bin !== '') || (bin !== null && typeof bin === 'object' && Object.keys(bin).length > 0);
    const found =
      stems.size === 0 && testOnly.size === 0 && oneOff.size === 0 && dataSources.size === 0 && !commandLine && !declaresBin
        ? NO_STEMS
        : { stems, directories, steps, authoring, testOnly, oneOff, commandLine, declaresBin, dataSources };
    const entry = { mtimeMs, checkedAt: now, stems: found };
    cache.set(packageJson, entry);
    return entry;
  } catch {
    const entry = { mtimeMs: Number.NaN, checkedAt: now, stems: NO_STEMS };
    cache.set(packageJson, entry);
    return entry;
  }
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

/**
 * The stem of a linted file as the scripts' stems are written (absolute, `/`, no extension). A
 * plain absolute POSIX path is what `resolve` would return, so it needs no `resolve` (which costs
 * more than the rest of a file's role).
 */
const fileStemOf = (filename: string): string => stemOf(sep === '/' && isPlainAbsolute(filename) ? filename : resolve(filename));

/** Whether `filename` lies directly in the directory asked about last (compared in place, no copy). */
const inLastDirectory = (filename: string): boolean =>
  lastDirectory !== undefined && filename.lastIndexOf('/') === lastDirectory.length && filename.startsWith(lastDirectory);

/** The nearest package.json above `filename` (absolute), and the directory of `filename`. */
function packageOf(filename: string): { directory: string; packageJson: string | undefined } | undefined {
  if (!filename || filename.startsWith('<')) return undefined;
  if (inLastDirectory(filename)) return { directory: lastDirectory!, packageJson: lastPackageJson };
  // Linters pass absolute paths: those need no `resolve`, and their directory is a slice.
  const plain = isPlainAbsolute(filename);
  const directory = plain ? filename.slice(0, Math.max(1, filename.lastIndexOf('/'))) : dirname(resolve(filename));
  const packageJson = nearestPackageJson(directory);
  lastDirectory = plain && directory.length > 1 ? directory : undefined;
  lastPackageJson = packageJson;
  return { directory, packageJson };
}

/**
 * The scripts' stems for the directory asked about last, while its package.json's entry is trusted: a file's role asks
 * several of the questions below in a row (`isRunByMigrateScript`, then a one-shot script's test-only and chore
 * questions), and the files of a folder are linted one after another.
 */
let lastLookup: { directory: string; stems: ScriptStems; checkedAt: number } | undefined;

/** The nearest package.json's script stems for `filename` (absolute) and its directory, or undefined with none. */
function scriptsFor(filename: string): { directory: string; stems: ScriptStems } | undefined {
  const found = packageOf(filename);
  if (found?.packageJson === undefined) return undefined;
  if (lastLookup?.directory === found.directory && Date.now() - lastLookup.checkedAt < RECHECK_AFTER_MS) return lastLookup;
  const entry = scriptEntryOf(found.packageJson);
  lastLookup = { directory: found.directory, stems: entry.stems, checkedAt: entry.checkedAt };
  return lastLookup;
}

/** Whether a `migrate` script of the nearest package.json runs `filename` (absolute). */
export function isRunByMigrateScript(filename: string): boolean {
  // The package.json is still looked at (its scripts by mtime, once a second): an edit to it counts.
  const found = scriptsFor(filename);
  if (found === undefined) return false;
  const { stems, directories } = found.stems;
  // A stem is compared only in a directory that holds one (stems use `/` separators).
  return stems.size > 0 && directories.has(found.directory.replace(/\\/g, '/')) && stems.has(fileStemOf(filename));
}

/** Whether migrate scripts run `filename` (absolute) only as a step beside a migrator's own command. */
export function isStepBesideMigratorCommand(filename: string): boolean {
  const steps = scriptsFor(filename)?.stems.steps;
  if (steps === undefined) return false;
  return steps.size > 0 && steps.has(fileStemOf(filename));
}

/** Whether migrate scripts run `filename` (absolute) only to write or undo migrations by hand (`migration:generate`, `migrate:dev`). */
export function isRunOnlyByAuthoringScripts(filename: string): boolean {
  const authoring = scriptsFor(filename)?.stems.authoring;
  if (authoring === undefined) return false;
  return authoring.size > 0 && authoring.has(fileStemOf(filename));
}

/** Whether only the test tooling's package.json scripts run `filename` (absolute): `"cypress:prepare": "ts-node scripts/prepare-test-db.ts"`. */
export function isRunOnlyByTestScripts(filename: string): boolean {
  const testOnly = scriptsFor(filename)?.stems.testOnly;
  if (testOnly === undefined) return false;
  return testOnly.size > 0 && testOnly.has(fileStemOf(filename));
}

/** Whether only an operator's one-off database chores run `filename` (absolute): `"db:truncate": "tsx server/db/reset.ts"`. */
export function isRunOnlyByOneOffScripts(filename: string): boolean {
  const oneOff = scriptsFor(filename)?.stems.oneOff;
  if (oneOff === undefined) return false;
  return oneOff.size > 0 && oneOff.has(fileStemOf(filename));
}

/** Whether `filename` (absolute) belongs to a command-line package (`isCommandLinePackage`). */
export function isInCommandLinePackage(filename: string): boolean {
  return scriptsFor(filename)?.stems.commandLine === true;
}

/**
 * Whether `filename` (absolute) sits in a command folder (`COMMAND_FOLDERS`: `src/bin/migrate.ts`,
 * `src/commands/db/migrate.ts`) of a package that declares a `bin`: a framework's or a tool's own
 * command (`payload migrate`, `medusa db:migrate`), run when an operator types it.
 */
export function isInCommandFolder(filename: string): boolean {
  const found = packageOf(filename);
  if (found?.packageJson === undefined || !scriptStemsOf(found.packageJson).declaresBin) return false;
  const root = dirname(found.packageJson).replace(/\\/g, '/');
  const directory = found.directory.replace(/\\/g, '/');
  if (!directory.startsWith(`${root}/`)) return false;
  return directory
    .slice(root.length + 1)
    .split('/')
    .some((segment) => COMMAND_FOLDERS.has(segment));
}

/** Whether a package.json script hands `filename` (absolute) to TypeORM's CLI as its data source (`-d src/data-source.ts`). */
export function isTypeOrmCliDataSource(filename: string): boolean {
  const dataSources = scriptsFor(filename)?.stems.dataSources;
  if (dataSources === undefined) return false;
  return dataSources.size > 0 && dataSources.has(fileStemOf(filename));
}
