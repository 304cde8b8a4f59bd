// Which files a run looks at: every source file under the given paths, minus .gitignore'd files,
// dependencies and build output, never through a symlink that leads out of the root.
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { glob } from 'tinyglobby';
import { SOURCE_EXTENSIONS } from './run-detection.js';

export const SKIPPED_DIRECTORIES = ['node_modules', 'dist', 'build', 'coverage', '.git'];
const SOURCE_FILE = new RegExp(`\\.(${SOURCE_EXTENSIONS.join('|')})$`);

export class PathNotFoundError extends Error {
  constructor(readonly path: string) {
    super(`path not found: ${path}`);
    this.name = 'PathNotFoundError';
  }
}

export interface Discovered {
  files: string[];
  skipped: Array<{ path: string; reason: string }>;
}

const isInside = (root: string, path: string): boolean => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

/** The directory holding `.git` at or above `dir`, if any. */
function gitRootOf(dir: string): string | undefined {
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, '.git'))) return current;
    if (dirname(current) === current) return undefined;
  }
}

interface GitignoreScope {
  dir: string;
  rules: Ignore;
}

function loadGitignore(dir: string): GitignoreScope | undefined {
  const file = join(dir, '.gitignore');
  if (!existsSync(file)) return undefined;
  return { dir, rules: ignore().add(readFileSync(file, 'utf8')) };
}

function isIgnored(path: string, scopes: readonly GitignoreScope[]): boolean {
  return scopes.some((scope) => isInside(scope.dir, path) && scope.rules.ignores(relative(scope.dir, path).split(sep).join('/')));
}

export async function discoverFiles(paths: readonly string[], cwd: string): Promise<Discovered> {
  const files = new Set<string>();
  const skipped: Discovered['skipped'] = [];
  for (const path of paths) {
    const absolute = resolve(cwd, path);
    if (!existsSync(absolute)) throw new PathNotFoundError(path);
    const isDirectory = statSync(absolute).isDirectory();
    const root = realpathSync(isDirectory ? absolute : dirname(absolute));
    // .gitignore files from the repository root down to (and below) this path.
    const scopes: GitignoreScope[] = [];
    const gitRoot = gitRootOf(root);
    for (let dir = root; gitRoot && isInside(gitRoot, dir); dir = dirname(dir)) {
      const scope = loadGitignore(dir);
      if (scope) scopes.push(scope);
      if (dir === gitRoot) break;
    }
    const ignoreGlobs = SKIPPED_DIRECTORIES.map((d) => `**/${d}/**`);
    let candidates: string[];
    if (isDirectory) {
      const nested = await glob('**/.gitignore', { cwd: root, absolute: true, dot: true, followSymbolicLinks: false, ignore: ignoreGlobs });
      for (const file of nested) {
        const scope = loadGitignore(dirname(file));
        if (scope && !scopes.some((s) => s.dir === scope.dir)) scopes.push(scope);
      }
      candidates = await glob(`**/*.{${SOURCE_EXTENSIONS.join(',')}}`, {
        cwd: root,
        absolute: true,
        followSymbolicLinks: false,
        ignore: ignoreGlobs,
      });
      candidates.sort();
    } else {
      candidates = SOURCE_FILE.test(absolute) ? [join(root, relative(dirname(absolute), absolute))] : [];
    }
    for (const candidate of candidates) {
      let real: string;
      try {
        real = realpathSync(candidate);
      } catch {
        skipped.push({ path: candidate, reason: 'broken symlink' });
        continue;
      }
      if (!isInside(root, real)) {
        skipped.push({ path: candidate, reason: 'symlink leads outside the root' });
        continue;
      }
      if (isDirectory && isIgnored(candidate, scopes)) continue;
      files.add(real);
    }
  }
  return { files: [...files], skipped };
}
