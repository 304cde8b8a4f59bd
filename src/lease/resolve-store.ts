// The one place that turns whatever was passed to setLeaseClient into a LeaseStore.
import { UnknownClientError } from '../errors.js';
import { ioredisCommands, isIoredisLike } from './clients/ioredis-commands.js';
import { isNodeRedisLike, nodeRedisCommands } from './clients/node-redis-commands.js';
import { createPostgresLeaseStore, isPostgresClientLike, type PostgresLeaseStoreOptions } from './postgres-store.js';
import { createRedisLeaseStore } from './redis-store.js';
import type { LeaseStore } from './store.js';

export type LeaseStoreKind = 'redis' | 'postgres';

export interface ResolveStoreOptions extends PostgresLeaseStoreOptions {
  /** Which backend the client talks to; recognised by shape when omitted. */
  store?: LeaseStoreKind;
}

export function isLeaseStore(value: unknown): value is LeaseStore {
  const v = value as Partial<Record<string, unknown>> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.kind === 'string' &&
    typeof v.acquire === 'function' &&
    typeof v.extend === 'function' &&
    typeof v.release === 'function'
  );
}

export function resolveLeaseStore(client: unknown, options: ResolveStoreOptions = {}, where = 'setLeaseClient'): LeaseStore {
  if (isLeaseStore(client)) return client;
  const kind = options.store ?? (isPostgresClientLike(client) && !isIoredisLike(client) && !isNodeRedisLike(client) ? 'postgres' : 'redis');
  if (kind === 'postgres') return createPostgresLeaseStore(client as Parameters<typeof createPostgresLeaseStore>[0], options);
  if (kind !== 'redis') throw new UnknownClientError(`${where}: unknown store "${String(kind)}" (expected "redis" or "postgres")`);
  if (isNodeRedisLike(client)) return createRedisLeaseStore(nodeRedisCommands(client));
  if (isIoredisLike(client)) return createRedisLeaseStore(ioredisCommands(client));
  throw new UnknownClientError(
    `${where}: ${describeShape(client)} is not a client replica-guard knows. Pass an ioredis/iovalkey ` +
      'client or Cluster, a node-redis client or cluster (createClient/createCluster), a pg Pool/Client ' +
      'or postgres.js sql with { store: "postgres" }, or a LeaseStore object.',
  );
}

function describeShape(client: unknown): string {
  if (client === undefined) return 'undefined';
  if (typeof client === 'function') return `a function${client.name ? ` (${client.name})` : ''}`;
  if (typeof client !== 'object') return `a ${typeof client} (${String(client)})`;
  const name = (client as object).constructor?.name;
  return name && name !== 'Object' ? `an object of class ${name}` : 'a plain object';
}
