// Which database URL a migrate entrypoint connects with: the variable it must read, and the app's or a
// pooler's URL it must not (a session advisory lock through a transaction pooler does not hold).
// Plain data and pure functions, read by `migrate-entrypoint`; the runtime refuses the same URLs.

/** The variable the migrate entrypoint must connect with. */
export const MIGRATE_URL_VARIABLE = 'POSTGRES_MIGRATE_URL';

/**
 * Words of a database URL variable's name that say it is not the app's pooled URL: a direct or
 * unpooled one (`DIRECT_DATABASE_URL`, `DATABASE_URL_UNPOOLED`, `POSTGRES_URL_NON_POOLING`), one
 * kept for migrations (`MIGRATION_DATABASE_URL`, Prisma's `SHADOW_DATABASE_URL`), or a test
 * database's (`TEST_DATABASE_URL`), which no replica serves from.
 */
const NOT_THE_APP_URL = /(?:^|_)(?:DIRECT|UNPOOLED|NON_POOLING|SHADOW|MIGRATE|MIGRATIONS?|TEST|TESTING)(?:_|$)/i;
/** A privileged role's URL the app never connects as (`ADMIN_DATABASE_URL`, `ROOT_DATABASE_URL`); a pooler's still is one (`ADMIN_POOL_URL`). */
const PRIVILEGED_ROLE_URL = /(?:^|_)(?:ADMIN|ROOT|SUPERUSER)(?:_|$)/i;

/**
 * Why an environment variable is the wrong URL for the migrate entrypoint: the app's URL
 * (`DATABASE_URL`, `POSTGRES_URL`…, which usually goes through PgBouncer) or a pooler's.
 */
export function wrongMigrateUrlVariable(name: string): 'app' | 'pooler' | undefined {
  if (name === MIGRATE_URL_VARIABLE || NOT_THE_APP_URL.test(name)) return undefined;
  if (/POOL|BOUNCER/i.test(name)) return 'pooler';
  if (PRIVILEGED_ROLE_URL.test(name)) return undefined;
  if (/^(?:DATABASE|DB|POSTGRES|POSTGRESQL|PG)_?URL$/i.test(name) || /_DATABASE_URL$/i.test(name)) return 'app';
  return undefined;
}

/** PgBouncer's default port, and hosts named like a pooler (the runtime refuses the same URLs: test/rules/migrations/runtime-agreement.test.ts). */
export const PGBOUNCER_DEFAULT_PORT = '6432';
const POOLER_HOST = /pgbouncer|pooler|bouncer|pgcat|odyssey|supavisor/i;

/** Whether a literal connection string points at PgBouncer or another pooler (port 6432, a host named like it). */
export function isPoolerUrlLiteral(text: string): boolean {
  const match = /^postgres(?:ql)?:\/\/(?:[^@/]*@)?([^/:?#]*)(?::(\d+))?/i.exec(text.trim());
  if (!match) return false;
  return POOLER_HOST.test(match[1] ?? '') || match[2] === PGBOUNCER_DEFAULT_PORT;
}
