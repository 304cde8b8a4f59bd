// The database provider of a package's Prisma schema, found where Prisma's CLI looks for it: the
// `prisma.schema` path of the package.json, else `prisma/schema.prisma`, else `schema.prisma`
// beside the package.json (a folder given as `prisma.schema` holds `schema.prisma`). Read once per
// package.json and read again when the package.json or the schema changes (their mtimes looked at
// at most once a second, as an editor's re-lint needs); never throwing: a missing or unreadable
// schema has no provider, and a rule then judges the file as it would without one.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { nearestPackageJson } from './nearest-package-json.js';

/** How long an answer is trusted before the files' mtimes are looked at again. */
const RECHECK_AFTER_MS = 1000;
/** The provider of each package.json's schema (undefined: none found), and what it was read from. */
const providers = new Map<string, { provider: string | undefined; stamp: string; checkedAt: number }>();

/** `datasource db { provider = "sqlite" … }`: Prisma's provider is always a string literal. */
const DATASOURCE_PROVIDER = /\bdatasource\s+\w+\s*\{[^}]*?\bprovider\s*=\s*"([^"]+)"/;

const isFile = (path: string): boolean => statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;

/** The schema file Prisma would read for the package of `packageJson`. */
function schemaFileOf(packageJson: string): string | undefined {
  const root = dirname(packageJson);
  const manifest = JSON.parse(readFileSync(packageJson, 'utf8')) as { prisma?: { schema?: unknown } } | null;
  const configured = manifest?.prisma?.schema;
  const candidates =
    typeof configured === 'string'
      ? [resolve(root, configured), join(resolve(root, configured), 'schema.prisma')]
      : [join(root, 'prisma', 'schema.prisma'), join(root, 'schema.prisma')];
  return candidates.find(isFile);
}

/** The `provider` of the Prisma schema of the package `filename` (absolute) belongs to: `sqlite`, `postgresql`, … */
export function prismaProviderOf(filename: string): string | undefined {
  if (!filename || filename.startsWith('<')) return undefined;
  const packageJson = nearestPackageJson(dirname(resolve(filename)));
  if (packageJson === undefined) return undefined;
  const now = Date.now();
  const cached = providers.get(packageJson);
  if (cached && now - cached.checkedAt < RECHECK_AFTER_MS) return cached.provider;
  let provider: string | undefined;
  let stamp = '';
  try {
    const schema = schemaFileOf(packageJson);
    stamp = `${mtimeOf(packageJson)}:${schema ?? ''}:${schema === undefined ? '' : mtimeOf(schema)}`;
    if (cached?.stamp === stamp) provider = cached.provider;
    else provider = schema === undefined ? undefined : DATASOURCE_PROVIDER.exec(readFileSync(schema, 'utf8'))?.[1];
  } catch {
    provider = undefined;
  }
  providers.set(packageJson, { provider, stamp, checkedAt: now });
  return provider;
}

const mtimeOf = (path: string): number => statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Number.NaN;

/** Whether the Prisma schema of the package `filename` belongs to is SQLite: a database file on this host or device. */
export const prismaOnHostDatabase = (filename: string): boolean => prismaProviderOf(filename) === 'sqlite';
