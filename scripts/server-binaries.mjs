// Where the real servers the tests use live, and which Debian package brings each one.
// Shared by scripts/ensure-servers.mjs (install what is missing) and test/harness (start them).
import { existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const searchDirs = () => [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/usr/bin'];

function onPath(name) {
  for (const dir of searchDirs()) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

function postgresBin(name) {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const v of versions) {
      const p = join(root, v, 'bin', name);
      if (existsSync(p)) return p;
    }
  }
  return onPath(name);
}

/** @type {Record<string, { package: string; find: () => string | undefined }>} */
export const serverBinaries = {
  'redis-server': { package: 'redis-server', find: () => onPath('redis-server') },
  pgbouncer: { package: 'pgbouncer', find: () => onPath('pgbouncer') },
  'nats-server': { package: 'nats-server', find: () => onPath('nats-server') },
  postgres: { package: 'postgresql', find: () => postgresBin('postgres') },
  initdb: { package: 'postgresql', find: () => postgresBin('initdb') },
};

/** Absolute path of a server binary, or throws naming the Debian package to install. */
export function binaryPath(name) {
  const entry = serverBinaries[name];
  if (!entry) throw new Error(`unknown server binary ${name}`);
  const found = entry.find();
  if (!found) throw new Error(`${name} not found: install the Debian package ${entry.package}`);
  return found;
}

/** Debian packages whose binaries are missing, deduplicated. */
export function missingPackages() {
  const missing = new Set();
  for (const entry of Object.values(serverBinaries)) if (!entry.find()) missing.add(entry.package);
  return [...missing];
}
