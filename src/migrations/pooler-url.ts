// Telling a PgBouncer (or other pooler) URL from a direct one. Session advisory locks through a
// transaction pooler lock one server connection and unlock another, so the migrate entrypoint
// refuses them. Two checks: the URL (before connecting) and the connection (after).

const POOLER_HOST = /pgbouncer|pooler|bouncer|pgcat|odyssey|supavisor/i;
const PGBOUNCER_PORT = '6432';

/** Why `url` looks like a pooler (its host or PgBouncer's default port), or undefined. */
export function poolerUrlReason(url: URL): string | undefined {
  if (POOLER_HOST.test(url.hostname)) return `its host "${url.hostname}" is named like a connection pooler`;
  if (url.port === PGBOUNCER_PORT) return `its port ${PGBOUNCER_PORT} is PgBouncer's default`;
  const host = url.searchParams.get('host');
  if (host && POOLER_HOST.test(host)) return `its host "${host}" is named like a connection pooler`;
  const port = url.searchParams.get('port');
  if (port === PGBOUNCER_PORT) return `its port ${PGBOUNCER_PORT} is PgBouncer's default`;
  return undefined;
}

/**
 * Why a connected session looks pooled, or undefined. PostgreSQL's BackendKeyData carries the
 * backend's pid (node-postgres keeps it as `processID`); PgBouncer and other poolers hand the
 * client a made-up cancel key instead, so it differs from `pg_backend_pid()`. A plain TCP proxy
 * passes the real one through and is not mistaken for a pooler.
 */
export function pooledSessionReason(announcedPid: unknown, backendPid: unknown): string | undefined {
  if (typeof announcedPid !== 'number' || backendPid === undefined || backendPid === null) return undefined;
  if (Number(backendPid) === announcedPid) return undefined;
  return `the server announced backend pid ${announcedPid} but the session runs on backend ${String(backendPid)} (a pooler in between)`;
}

/** The URL with its password masked, for messages. */
export function redactUrl(url: URL): string {
  const copy = new URL(url.href);
  if (copy.password) copy.password = '***';
  return copy.href;
}
