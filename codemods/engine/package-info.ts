// The nearest package.json above a file, never above the run's root: its name (the `<service>` in
// lease keys, scope stripped) and its `type` (how plain .js files are parsed and which module
// style to write). With no package.json the service is the root directory's name — never a
// made-up word shared by every such project.
import { basename, dirname, sep } from 'node:path';
import { packageJsonIn, unscopedName } from '../../analysis/modules/package-json.js';
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
  // An unreadable package.json says nothing (null): keep looking upwards.
  const json = packageJsonIn(startDir);
  if (json) {
    info = {
      dir: startDir,
      service: serviceSlug(unscopedName(json) ?? basename(startDir)),
      type: json.type === 'module' ? 'module' : 'commonjs',
    };
  }
  if (!info) {
    const parent = dirname(startDir);
    const atTop = parent === startDir || (root !== undefined && (startDir === root || !isInside(root, parent)));
    info = atTop ? { dir: startDir, service: serviceSlug(basename(startDir)), type: 'commonjs' } : packageInfoFor(parent, root);
  }
  cache.set(cacheKey, info);
  return info;
}
