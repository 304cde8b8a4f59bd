// The service part of a lease key: `settings['replica-guard'].service`, else the nearest
// package.json `name` (without its npm scope), else `app`.
import { dirname } from 'node:path';
import { packageJsonIn, unscopedName } from '../../analysis/modules/package-json.js';

const byDirectory = new Map<string, string | undefined>();

/** The unscoped name of the nearest package.json with one, at or above `directory`. */
function packageName(directory: string): string | undefined {
  if (byDirectory.has(directory)) return byDirectory.get(directory);
  let name = unscopedName(packageJsonIn(directory));
  if (name === undefined) {
    const parent = dirname(directory);
    name = parent === directory ? undefined : packageName(parent);
  }
  byDirectory.set(directory, name);
  return name;
}

export function serviceName(configured: string | undefined, filename: string): string {
  if (configured) return configured;
  if (!filename || filename.startsWith('<')) return 'app';
  return packageName(dirname(filename)) ?? 'app';
}

/** What a service name in a lease key may be: letters, digits, `.`, `_`, `-`, starting with a letter or digit. */
export const SERVICE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Why `value` cannot be a service name in lease keys, or undefined when it can. */
export function invalidServiceName(value: string): string | undefined {
  if (value === '') return 'it is empty';
  if (value.startsWith('-')) return 'it looks like an option (did a value go missing?)';
  if (!SERVICE_NAME.test(value)) return 'use only letters, digits, ".", "_" and "-" (a lease key is "<service>:<job>")';
  return undefined;
}

/** A name made key-safe: other characters become `-` (`My Service` → `My-Service`); `app` when nothing is left. */
export function serviceSlug(name: string): string {
  const slug = name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-._]+|-+$/g, '');
  return slug === '' ? 'app' : slug;
}
