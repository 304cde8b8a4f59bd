// The nearest package.json above a file, never above the run's root: its name (the `<service>` in
// lease keys, scope stripped) and its `type` (how plain .js files are parsed and which module
// style to write). With no package.json the service is the root directory's name — never a
// made-up word shared by every such project.
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { serviceSlug } from '../../rules/rewrites/service-name.js';

export interface PackageInfo {
  /** Directory holding the package.json (or the root when there is none). */
  dir: string;
  /** `name` without its `@scope/`, or the directory name when there is no package.json. */
  service: string;
  type: 'module' | 'commonjs';
}

const cache = new Map<string, PackageInfo>();

const isInside = (root: string, path: string): boolean => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

/** `startDir`'s package; `root` bounds the search (a package.json above the run's root is another project's). */
export function packageInfoFor(startDir: string, root?: string): PackageInfo {
  const cacheKey = `${root ?? ''}\0${startDir}`;
  const hit = cache.get(cacheKey);
  if (hit) return hit;
  let info: PackageInfo | undefined;
  const file = join(startDir, 'package.json');
  if (existsSync(file)) {
    try {
      const json = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; type?: unknown };
      const name = typeof json.name === 'string' && json.name.length > 0 ? json.name.replace(/^@[^/]+\//, '') : basename(startDir);
      info = { dir: startDir, service: serviceSlug(name), type: json.type === 'module' ? 'module' : 'commonjs' };
    } catch {
      // An unreadable package.json says nothing; keep looking upwards.
    }
  }
  if (!info) {
    const parent = dirname(startDir);
    const atTop = parent === startDir || (root !== undefined && (startDir === root || !isInside(root, parent)));
    info = atTop ? { dir: startDir, service: serviceSlug(basename(startDir)), type: 'commonjs' } : packageInfoFor(parent, root);
  }
  cache.set(cacheKey, info);
  return info;
}
