// A linted file's path as the project's globs and folder conventions see it.
import { isAbsolute } from 'node:path';

/** `filename` relative to `cwd` with `/` separators (a relative `filename` is taken as it is), or undefined outside `cwd`. */
export function projectPath(filename: string, cwd: string): string | undefined {
  const normalized = filename.replace(/\\/g, '/');
  if (!isAbsolute(filename)) return normalized;
  const base = cwd.replace(/\\/g, '/').replace(/\/$/, '');
  return normalized.startsWith(`${base}/`) ? normalized.slice(base.length + 1) : undefined;
}
