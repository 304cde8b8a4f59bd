// Which project file an import specifier names, the way the project's own tooling would find it:
// relative paths (with TypeScript's `.js` → `.ts` convention), tsconfig `paths`/`baseUrl`,
// package.json `imports` (`#db`), and packages of the same workspace. Anything that resolves into
// node_modules, or not at all, is not a project module: the answer is undefined.
import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { createPathsMatcher, findTsconfig, getTsconfig, type TsConfigResult } from 'get-tsconfig';
import { globSync } from 'tinyglobby';
import { forgetPackageJsons, packageJsonIn, type PackageJson } from './package-json.js';

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
/** TypeScript sources import each other by their emitted name (`./db.js` is `./db.ts`). */
const EMITTED_TO_SOURCE: Readonly<Record<string, readonly string[]>> = {
  '.js': ['.ts', '.tsx'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts'],
  '.cjs': ['.cts'],
};

function isFile(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
  } catch {
    return false;
  }
}

/** A path with or without its extension, or a directory with an index file. */
export function resolveFilePath(base: string): string | undefined {
  const dot = base.lastIndexOf('.');
  const ext = dot > base.lastIndexOf('/') ? base.slice(dot) : '';
  for (const sourceExt of EMITTED_TO_SOURCE[ext] ?? []) {
    const candidate = base.slice(0, -ext.length) + sourceExt;
    if (isFile(candidate)) return candidate;
  }
  if (ext && SOURCE_EXTENSIONS.includes(ext) && isFile(base)) return base;
  for (const sourceExt of SOURCE_EXTENSIONS) if (isFile(base + sourceExt)) return base + sourceExt;
  for (const sourceExt of SOURCE_EXTENSIONS) {
    const index = join(base, `index${sourceExt}`);
    if (isFile(index)) return index;
  }
  return undefined;
}

const insideNodeModules = (path: string): boolean => /[\\/]node_modules[\\/]/.test(path);

/** The nearest directories, from `dir` up, whose package.json passes `pick`. */
function nearestPackage(dir: string, pick: (json: PackageJson) => boolean): { dir: string; json: PackageJson } | undefined {
  for (let current = dir; ; current = dirname(current)) {
    if (insideNodeModules(current + '/')) return undefined;
    const json = packageJsonIn(current);
    if (json && pick(json)) return { dir: current, json };
    if (dirname(current) === current) return undefined;
  }
}

/** The first string target of an `exports`/`imports` value, preferring source-ish conditions. */
function conditionalTarget(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    for (const item of value) {
      const target = conditionalTarget(item);
      if (target) return target;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const condition of ['source', 'types', 'import', 'require', 'node', 'default']) {
      const target = conditionalTarget(record[condition]);
      if (target) return target;
    }
  }
  return undefined;
}

/** A subpath pattern map (`imports`, `exports`) applied to `request` (`#db/client`, `./client`). */
function mapSubpath(map: Record<string, unknown>, request: string): string | undefined {
  if (request in map) return conditionalTarget(map[request]);
  for (const [pattern, value] of Object.entries(map)) {
    const star = pattern.indexOf('*');
    if (star < 0) continue;
    const [before, after] = [pattern.slice(0, star), pattern.slice(star + 1)];
    if (!request.startsWith(before) || !request.endsWith(after) || request.length < pattern.length - 1) continue;
    const target = conditionalTarget(value);
    if (target) return target.replace('*', request.slice(before.length, request.length - after.length));
  }
  return undefined;
}

/** A built target (`./dist/db.js`, `./lib/db.d.ts`) mapped back to the source it was built from. */
function sourceOf(packageDir: string, target: string): string | undefined {
  const direct = target.endsWith('.d.ts') ? undefined : resolveFilePath(resolve(packageDir, target));
  if (direct && !/[\\/](dist|lib|build|out)[\\/]/.test(direct.slice(packageDir.length))) return direct;
  const stem = target.replace(/^\.\//, '').replace(/\.d\.ts$|\.[cm]?js$/, '');
  const inSource = stem.replace(/^(dist|lib|build|out)\//, 'src/');
  return resolveFilePath(resolve(packageDir, inSource)) ?? resolveFilePath(resolve(packageDir, stem)) ?? direct;
}

/** Workspace package name → directory, per workspace root. */
const workspaceCache = new Map<string, Map<string, string>>();
function workspacePackages(rootDir: string, patterns: readonly string[]): Map<string, string> {
  let packages = workspaceCache.get(rootDir);
  if (!packages) {
    packages = new Map();
    try {
      const manifests = globSync(
        patterns.map((p) => `${p.replace(/\/$/, '')}/package.json`),
        { cwd: rootDir, ignore: ['**/node_modules/**'], absolute: true },
      );
      for (const manifest of manifests.slice(0, 2000)) {
        const json = packageJsonIn(dirname(manifest));
        if (typeof json?.name === 'string' && json.name !== '') packages.set(json.name, dirname(manifest));
      }
    } catch {
      // An unreadable workspace is a workspace without packages.
    }
    workspaceCache.set(rootDir, packages);
  }
  return packages;
}

function resolveWorkspacePackage(fromDir: string, specifier: string): string | undefined {
  const root = nearestPackage(fromDir, (json) => json.workspaces !== undefined);
  if (!root) return undefined;
  const listed = Array.isArray(root.json.workspaces) ? root.json.workspaces : root.json.workspaces?.packages;
  const packages = workspacePackages(root.dir, Array.isArray(listed) ? listed.filter((p) => typeof p === 'string') : []);
  const parts = specifier.split('/');
  const nameLength = specifier.startsWith('@') ? 2 : 1;
  const name = parts.slice(0, nameLength).join('/');
  const dir = packages.get(name);
  if (!dir) return undefined;
  const json = packageJsonIn(dir) ?? {};
  const subpath = parts.length > nameLength ? `./${parts.slice(nameLength).join('/')}` : '.';
  const exported = json.exports
    ? typeof json.exports === 'object' && !Array.isArray(json.exports) && Object.keys(json.exports).some((k) => k.startsWith('.'))
      ? mapSubpath(json.exports as Record<string, unknown>, subpath)
      : subpath === '.'
        ? conditionalTarget(json.exports)
        : undefined
    : undefined;
  if (exported) return sourceOf(dir, exported);
  if (subpath !== '.') return sourceOf(dir, subpath);
  // The first entry field that is a path: a malformed one (`"main": 7`) is skipped, as Node skips it.
  const entry = [json.source, json.types, json.module, json.main].find((field) => typeof field === 'string' && field !== '');
  return (entry ? sourceOf(dir, entry) : undefined) ?? resolveFilePath(join(dir, 'src', 'index')) ?? resolveFilePath(join(dir, 'index'));
}

function resolvePackageImport(fromDir: string, specifier: string): string | undefined {
  const owner = nearestPackage(fromDir, (json) => json.imports !== undefined);
  if (!owner?.json.imports) return undefined;
  const target = mapSubpath(owner.json.imports, specifier);
  return target && target.startsWith('.') ? sourceOf(owner.dir, target) : undefined;
}

type PathsMatcher = (specifier: string) => string[];

/** tsconfig's dialect of JSON (comments, trailing commas) parsed, or undefined. */
function parseJsonWithComments(text: string): unknown {
  let json = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      json += text.slice(i, end + 1);
      i = end;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      json += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else {
      json += c;
    }
  }
  try {
    return JSON.parse(json.replace(/,(\s*[}\]])/g, '$1'));
  } catch {
    return undefined;
  }
}

/**
 * The nearest tsconfig's own `baseUrl` and well-formed `paths`, for a tsconfig get-tsconfig refuses
 * (an `extends` that is missing or circular, a `paths` entry that is not a list of strings):
 * TypeScript reports those and still maps the other entries, and so does the analysis.
 */
function ownPathOptions(fromDir: string): TsConfigResult | null {
  const path = findTsconfig(fromDir);
  if (!path) return null;
  const config = parseJsonWithComments(readFileSync(path, 'utf8')) as { compilerOptions?: Record<string, unknown> } | undefined;
  const options = config?.compilerOptions;
  if (!options || typeof options !== 'object') return null;
  const paths = options.paths && typeof options.paths === 'object' ? (options.paths as Record<string, unknown>) : {};
  const wellFormed = Object.entries(paths).filter(
    (entry): entry is [string, string[]] => Array.isArray(entry[1]) && entry[1].every((target) => typeof target === 'string'),
  );
  const baseUrl = typeof options.baseUrl === 'string' ? options.baseUrl : undefined;
  return { path, config: { compilerOptions: { baseUrl, paths: Object.fromEntries(wellFormed) } } };
}

function readPathsMatcher(fromDir: string): PathsMatcher | null {
  let tsconfig: TsConfigResult | null;
  try {
    tsconfig = getTsconfig(fromDir);
  } catch {
    tsconfig = ownPathOptions(fromDir);
  }
  return tsconfig ? createPathsMatcher(tsconfig) : null;
}

const pathsMatchers = new Map<string, PathsMatcher | null>();
function pathsMatcherFor(fromDir: string): PathsMatcher | null {
  let matcher = pathsMatchers.get(fromDir);
  if (matcher === undefined) {
    try {
      matcher = readPathsMatcher(fromDir);
    } catch {
      matcher = null;
    }
    pathsMatchers.set(fromDir, matcher);
  }
  return matcher;
}

/**
 * The project source file `specifier` names from a file in `fromDir`, or undefined (a package in
 * node_modules, a built-in, a missing file). Never throws.
 */
export function resolveProjectSpecifier(fromDir: string, specifier: string): string | undefined {
  try {
    let found: string | undefined;
    if (specifier.startsWith('.') || isAbsolute(specifier)) found = resolveFilePath(resolve(fromDir, specifier));
    else if (specifier.startsWith('node:')) return undefined;
    else if (specifier.startsWith('#')) found = resolvePackageImport(fromDir, specifier);
    else {
      for (const candidate of pathsMatcherFor(fromDir)?.(specifier) ?? []) {
        found = resolveFilePath(candidate);
        if (found) break;
      }
      found ??= resolveWorkspacePackage(fromDir, specifier);
    }
    return found && !insideNodeModules(found) ? found : undefined;
  } catch {
    return undefined;
  }
}

/** Forget every cached package.json, tsconfig and workspace (tests; a long-lived process after edits). */
export function clearResolutionCaches(): void {
  forgetPackageJsons();
  workspaceCache.clear();
  pathsMatchers.clear();
}
