// A directory's package.json, parsed once per process: module resolution (`imports`, `exports`,
// workspaces), the service name of lease keys and the codemod's package facts all read the same
// files, folder by folder. Null when the directory has none or it does not parse; never throws.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The fields the rules and the codemod read; anything else is left as it is. */
export interface PackageJson {
  name?: unknown;
  type?: unknown;
  imports?: Record<string, unknown>;
  exports?: unknown;
  main?: string;
  module?: string;
  types?: string;
  source?: string;
  workspaces?: string[] | { packages?: string[] };
  dependencies?: unknown;
  devDependencies?: unknown;
}

const byDirectory = new Map<string, PackageJson | null>();

/** The parsed package.json of `directory` (absolute), or null. */
export function packageJsonIn(directory: string): PackageJson | null {
  let cached = byDirectory.get(directory);
  if (cached === undefined) {
    const file = join(directory, 'package.json');
    try {
      const parsed: unknown = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
      cached = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as PackageJson) : null;
    } catch {
      cached = null;
    }
    byDirectory.set(directory, cached);
  }
  return cached;
}

/** The package's `name` without its npm scope (`@acme/billing` → `billing`), or undefined. */
export function unscopedName(json: PackageJson | null): string | undefined {
  return typeof json?.name === 'string' && json.name !== '' ? json.name.replace(/^@[^/]+\//, '') : undefined;
}

/** Forget every package.json read (tests; a long-lived process after edits). */
export function forgetPackageJsons(): void {
  byDirectory.clear();
}
