// Writing a run's changes: each file atomically (a temp file in the same directory, then a
// rename) with its owner and mode kept, only inside the run's root or the paths it was given,
// and never through a symlink.
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { errorMessage, type CodemodReport } from './report.js';

/** Write via a temp file in the same directory and a rename, keeping the file's mode and owner. */
export function writeFileAtomic(path: string, text: string): void {
  const temp = join(dirname(path), `.${basename(path)}.replica-codemod-${process.pid}-${Math.random().toString(36).slice(2)}.tmp`);
  try {
    const original = statSync(path);
    writeFileSync(temp, text);
    chmodSync(temp, original.mode);
    // Run as root (a container, sudo), the temp file is root's: give it back to the file's owner.
    if (typeof process.getuid === 'function' && (original.uid !== process.getuid() || original.gid !== process.getgid?.()))
      chownSync(temp, original.uid, original.gid);
    renameSync(temp, path);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // already gone
    }
    throw error;
  }
}

const isInside = (root: string, path: string): boolean => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

/** The directories a run may write under: the root and each path it was given (as written and resolved). */
export function writableRoots(cwd: string, paths: readonly string[]): string[] {
  const roots = new Set<string>();
  for (const path of ['.', ...paths]) {
    const absolute = resolve(cwd, path);
    roots.add(absolute);
    try {
      roots.add(realpathSync(absolute));
    } catch {
      // not there: the lexical form is all there is
    }
  }
  return [...roots];
}

/**
 * Why `path` must not be written, or undefined when it may: it has to lie inside one of `roots`
 * and no directory between that root and it (nor the file itself) may be a symlink.
 */
export function unwritableReason(path: string, roots: readonly string[]): string | undefined {
  const root = roots.filter((r) => isInside(r, path)).sort((a, b) => b.length - a.length)[0];
  if (!root) return 'outside the directories the run was given';
  let current = root;
  for (const part of relative(root, path).split(sep).filter(Boolean)) {
    current = join(current, part);
    if (!existsSync(current) && !isSymlink(current)) return undefined;
    if (isSymlink(current)) return `${relative(root, current) || current} is a symlink; the codemod never writes through one`;
  }
  return undefined;
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Writes every change of `report` (new files with `wx`), recording what could not be written. */
export function writeChanges(report: CodemodReport, created: ReadonlySet<string>, roots: readonly string[]): void {
  for (const change of report.changes) {
    const refused = unwritableReason(change.path, roots);
    if (refused) {
      report.errors.push({ file: change.file, message: `not written: ${refused}` });
      continue;
    }
    try {
      if (created.has(change.path)) {
        mkdirSync(dirname(change.path), { recursive: true });
        writeFileSync(change.path, change.after, { flag: 'wx' });
      } else writeFileAtomic(change.path, change.after);
    } catch (error) {
      report.errors.push({ file: change.file, message: `could not write: ${errorMessage(error)}` });
    }
  }
  report.written = true;
}
