// Shared settings every rule reads from `settings['replica-guard']` in eslint.config.js.
// Documented once, in docs/settings.md.
import picomatch from 'picomatch';
import { DEFAULT_MIGRATE_ENTRYPOINTS, DEFAULT_MIGRATION_FILES, DEFAULT_MIGRATION_FLAGS } from '../src/knowledge/migrators.js';
import { projectPath } from './source/project-path.js';

export interface GuardFunctionSetting {
  /** Module the guard is imported from (`@acme/jobs`); omit for a global or same-file function. */
  module?: string;
  /** Exported name (`withLease`), or a dotted member path (`jobs.guard`). */
  name: string;
}

export interface ReplicaGuardSettings {
  /** In-house wrappers that count as guards, in addition to replica-guard's own. */
  guards: GuardFunctionSetting[];
  /** Globs (matched against the path relative to the ESLint cwd) of migrate entrypoints. */
  migrateEntrypoints: string[];
  /** Globs of migration files (schema writes are expected there). */
  migrationFiles: string[];
  /** Environment flags that turn on in-app migrations. */
  migrationFlags: string[];
  /** Service name used in suggested lease keys (`<service>:<job>`). */
  service: string | undefined;
}

export { DEFAULT_MIGRATE_ENTRYPOINTS, DEFAULT_MIGRATION_FILES, DEFAULT_MIGRATION_FLAGS };

/** By settings object: ESLint hands the same object to every file of one configuration. */
const cache = new WeakMap<object, ReplicaGuardSettings>();
/**
 * By content: a new but equal object (no settings at all, or settings rebuilt per file by a
 * config) resolves to the same result, so every cache keyed on the result or its arrays (glob
 * matchers, word patterns) stays warm.
 */
const byContent = new Map<string, ReplicaGuardSettings>();
const NO_SETTINGS: Readonly<Record<string, unknown>> = Object.freeze({});

function strings(value: unknown, what: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw new TypeError(`settings['replica-guard'].${what} must be an array of strings`);
  }
  return value as string[];
}

/** Reads and validates `settings['replica-guard']`; cached per settings object. */
export function readSettings(settings: Readonly<Record<string, unknown>> | undefined): ReplicaGuardSettings {
  const raw = (settings?.['replica-guard'] ?? NO_SETTINGS) as Record<string, unknown>;
  const hit = cache.get(raw);
  if (hit) return hit;
  const key = contentKey(raw);
  const equal = key === undefined ? undefined : byContent.get(key);
  if (equal) {
    cache.set(raw, equal);
    return equal;
  }
  const guardsRaw = raw.guards ?? [];
  if (!Array.isArray(guardsRaw)) throw new TypeError(`settings['replica-guard'].guards must be an array`);
  const guards = guardsRaw.map((g, i): GuardFunctionSetting => {
    if (typeof g === 'string') return { name: g };
    if (g && typeof g === 'object' && typeof (g as GuardFunctionSetting).name === 'string') {
      const { module, name } = g as GuardFunctionSetting;
      return module === undefined ? { name } : { module, name };
    }
    throw new TypeError(`settings['replica-guard'].guards[${i}] must be a name or { module?, name }`);
  });
  const service = raw.service;
  if (service !== undefined && typeof service !== 'string') throw new TypeError(`settings['replica-guard'].service must be a string`);
  const resolved: ReplicaGuardSettings = {
    guards,
    migrateEntrypoints: strings(raw.migrateEntrypoints, 'migrateEntrypoints') ?? [...DEFAULT_MIGRATE_ENTRYPOINTS],
    migrationFiles: strings(raw.migrationFiles, 'migrationFiles') ?? [...DEFAULT_MIGRATION_FILES],
    migrationFlags: [...DEFAULT_MIGRATION_FLAGS, ...(strings(raw.migrationFlags, 'migrationFlags') ?? [])],
    service,
  };
  cache.set(raw, resolved);
  if (key !== undefined && byContent.size < 64) byContent.set(key, resolved);
  return resolved;
}

/** A key for settings made of JSON values; undefined for anything else (a function, a cycle). */
function contentKey(raw: Record<string, unknown>): string | undefined {
  try {
    return JSON.stringify(raw);
  } catch {
    return undefined;
  }
}

interface GlobMatcher {
  match: (path: string) => boolean;
  /** Parts of literal runs of which any path a glob matches contains one (`sharedLiterals`); `undefined` when some glob has none. */
  literals: string[] | undefined;
  /** Per brace alternative of each glob, all its literal runs: a path it matches contains every one. */
  alternatives: string[][] | undefined;
}

/** Keyed by the globs array: a resolved settings object keeps its arrays, so each is compiled once. */
const matchers = new WeakMap<readonly string[], GlobMatcher>();
const MAX_ALTERNATIVES = 256;

/** Brace groups of a glob without inner braces. */
const BRACE_GROUP = /\{([^{}]*)\}/;

/**
 * A glob with its brace groups spelled out, innermost first (`migrate.{js,ts}` → `migrate.js`,
 * `migrate.ts`); a range (`{1..9}`) or a glob with too many alternatives keeps a separator there.
 */
function braceAlternatives(glob: string): string[] {
  const group = BRACE_GROUP.exec(glob);
  if (!group) return [glob];
  const around = (middle: string): string => glob.slice(0, group.index) + middle + glob.slice(group.index + group[0].length);
  if (group[1]!.includes('..')) return braceAlternatives(around('/'));
  const alternatives = group[1]!.split(',').flatMap((alternative) => braceAlternatives(around(alternative)));
  return alternatives.length > MAX_ALTERNATIVES ? [glob.replace(new RegExp(BRACE_GROUP.source, 'g'), '/')] : alternatives;
}

/**
 * The runs of plain characters in `glob` (no separators, classes or extglob groups), longest
 * first: every path the glob matches contains each of them (`migrations` in `**\/migrations/**`,
 * `scripts`, `migrate` and `.js` in `**\/scripts/migrate*.js`).
 */
function literalRuns(glob: string): string[] {
  if (glob.startsWith('!')) return [];
  return glob
    .replace(/\[[^\]]*\]|[!+@*?]?\([^)]*\)/g, '/')
    .split(/[*?[\]{}()!+@\\/]+/)
    .filter((run) => run.length > 0)
    .sort((a, b) => b.length - a.length);
}

/** For each glob and each of its brace alternatives, its literal runs; undefined when one has none. */
function alternativeRunsOf(globs: readonly string[]): string[][] | undefined {
  const alternatives: string[][] = [];
  for (const glob of globs) {
    for (const alternative of braceAlternatives(glob)) {
      const runs = literalRuns(alternative);
      if (runs.length === 0) return undefined;
      alternatives.push(runs);
    }
  }
  return alternatives;
}

/** Parts of a run taken as candidates for `sharedLiterals`: no shorter (a short part is held by many paths), and a run itself. */
const MIN_LITERAL = 5;
const MAX_LITERAL = 12;

/**
 * Substrings of the runs such that each alternative holds one of them (so a path any glob matches
 * contains one): chosen greedily, the one held by the most alternatives not yet covered first, the
 * longer on a tie. The default entrypoint globs' 57 alternatives share `migrat`, so most paths are
 * turned away by one `includes` instead of one per distinct longest run.
 */
function sharedLiterals(alternatives: readonly string[][] | undefined): string[] | undefined {
  if (!alternatives) return undefined;
  const holders = new Map<string, Set<number>>();
  alternatives.forEach((runs, index) => {
    for (const run of runs) {
      if (run.length < MIN_LITERAL) (holders.get(run) ?? holders.set(run, new Set()).get(run)!).add(index);
      for (let length = MIN_LITERAL; length <= Math.min(run.length, MAX_LITERAL); length++)
        for (let start = 0; start + length <= run.length; start++) {
          const part = run.slice(start, start + length);
          (holders.get(part) ?? holders.set(part, new Set()).get(part)!).add(index);
        }
      if (run.length > MAX_LITERAL) (holders.get(run) ?? holders.set(run, new Set()).get(run)!).add(index);
    }
  });
  const uncovered = new Set(alternatives.keys());
  const literals: string[] = [];
  while (uncovered.size > 0) {
    let best: string | undefined;
    let bestCount = 0;
    for (const [part, held] of holders) {
      let count = 0;
      for (const index of held) if (uncovered.has(index)) count++;
      if (count > bestCount || (count === bestCount && count > 0 && part.length > best!.length)) [best, bestCount] = [part, count];
    }
    // Every alternative has a run (`alternativeRunsOf`), so some part covers each one left.
    for (const index of holders.get(best!)!) uncovered.delete(index);
    literals.push(best!);
  }
  return literals;
}

/** The globs asked about last and their matcher: every linted file asks with the same array. */
let lastGlobs: readonly string[] | undefined;
let lastMatcher: GlobMatcher | undefined;

function matcherOf(globs: readonly string[]): GlobMatcher {
  if (globs === lastGlobs) return lastMatcher!;
  let matcher = matchers.get(globs);
  if (!matcher) {
    const alternatives = alternativeRunsOf(globs);
    matcher = { match: picomatch(globs as string[], { dot: true }), literals: sharedLiterals(alternatives), alternatives };
    matchers.set(globs, matcher);
  }
  lastGlobs = globs;
  lastMatcher = matcher;
  return matcher;
}

/**
 * Whether `filename` can match any of `globs`: `false` when it holds none of their longest
 * literal runs, or no alternative has all its runs there (`scripts/colors.js` holds `scripts` but
 * not `migrate`). Runs once per linted file, and a string search is much cheaper than picomatch's
 * expressions (or than reading the working directory from the rule context).
 */
export function mayMatchAny(filename: string, globs: readonly string[]): boolean {
  const { literals, alternatives } = matcherOf(globs);
  if (!literals || !alternatives) return true;
  let holds = false;
  for (let i = 0; i < literals.length && !holds; i++) holds = filename.includes(literals[i]!);
  if (!holds) return false;
  // Hundreds of alternatives share a few dozen runs (`migrate`, `.ts`, `scripts`): each run is searched for once per path.
  const held = new Map<string, boolean>();
  const holdsRun = (run: string): boolean => {
    let found = held.get(run);
    if (found === undefined) held.set(run, (found = filename.includes(run)));
    return found;
  };
  return alternatives.some((runs) => runs.every(holdsRun));
}

/** Whether `filename` (absolute or relative to `cwd`) matches any of `globs`. */
export function matchesAny(filename: string, cwd: string, globs: readonly string[]): boolean {
  if (!mayMatchAny(filename, globs)) return false;
  const normalized = filename.replace(/\\/g, '/');
  const relative = projectPath(filename, cwd) ?? normalized;
  const { match } = matcherOf(globs);
  return match(relative) || match(normalized);
}
