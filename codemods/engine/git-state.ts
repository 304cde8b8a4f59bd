// Whether it is safe to write: the codemod refuses to write over uncommitted work, and refuses
// just the same when it cannot tell (git missing, a checkout git will not read) — unless `--force`.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CodemodUsageError } from './report.js';

export type GitState =
  | { kind: 'clean' }
  | { kind: 'dirty'; changes: string[] }
  /** No `.git` at or above the directory: nothing git could protect. */
  | { kind: 'not-a-repository' }
  | { kind: 'unreadable'; reason: string };

function insideRepository(dir: string): boolean {
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, '.git'))) return true;
    if (dirname(current) === current) return false;
  }
}

/** The git state of `paths` under `cwd`. */
export function gitStateOf(cwd: string, paths: readonly string[]): GitState {
  if (!insideRepository(cwd)) return { kind: 'not-a-repository' };
  try {
    const out = execFileSync('git', ['status', '--porcelain', '--', ...paths], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const changes = out.split('\n').filter((l) => l.trim().length > 0);
    return changes.length > 0 ? { kind: 'dirty', changes } : { kind: 'clean' };
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    const reason = stderr.split('\n')[0] || (error instanceof Error ? error.message : String(error));
    return { kind: 'unreadable', reason };
  }
}

/** Uncommitted changes under `paths`, or `undefined` when the git state cannot be read or there is no repository. */
export function dirtyFiles(cwd: string, paths: readonly string[]): string[] | undefined {
  const state = gitStateOf(cwd, paths);
  return state.kind === 'dirty' ? state.changes : state.kind === 'clean' ? [] : undefined;
}

/** Throws a usage error when writing under `paths` could destroy uncommitted work, or when that cannot be told. */
export function assertSafeToWrite(cwd: string, paths: readonly string[]): void {
  const state = gitStateOf(cwd, paths);
  if (state.kind === 'dirty') {
    const n = state.changes.length;
    throw new CodemodUsageError(
      `refusing to write into a dirty git tree (${n} uncommitted change${n === 1 ? '' : 's'} under ${paths.join(' ')}, e.g. ${state.changes[0]!.trim()}); commit or stash first, or pass --force`,
    );
  }
  if (state.kind === 'unreadable') {
    throw new CodemodUsageError(
      `refusing to write: the git state cannot be read (git status: ${state.reason}), so uncommitted changes cannot be protected; fix git or pass --force`,
    );
  }
}
