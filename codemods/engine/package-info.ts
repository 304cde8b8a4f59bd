// The nearest package.json above a file: its name (the `<service>` in lease keys, scope
// stripped) and its `type` (how plain .js files are parsed and which module style to write).
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface PackageInfo {
  /** Directory holding the package.json (or the start directory when there is none). */
  dir: string;
  /** `name` without its `@scope/`, or the directory name when there is no package.json. */
  service: string;
  type: 'module' | 'commonjs';
}

const cache = new Map<string, PackageInfo>();

export function packageInfoFor(startDir: string): PackageInfo {
  const hit = cache.get(startDir);
  if (hit) return hit;
  let info: PackageInfo | undefined;
  const file = join(startDir, 'package.json');
  if (existsSync(file)) {
    try {
      const json = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; type?: unknown };
      const name = typeof json.name === 'string' && json.name.length > 0 ? json.name.replace(/^@[^/]+\//, '') : basename(startDir);
      info = { dir: startDir, service: name, type: json.type === 'module' ? 'module' : 'commonjs' };
    } catch {
      // An unreadable package.json says nothing; keep looking upwards.
    }
  }
  if (!info) {
    const parent = dirname(startDir);
    info = parent === startDir ? { dir: startDir, service: basename(startDir) || 'service', type: 'commonjs' } : packageInfoFor(parent);
  }
  cache.set(startDir, info);
  return info;
}
