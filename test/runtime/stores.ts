// The lease backends the guarantee suite runs against. Each entry connects a client exactly the
// way a service would (default options — ioredis's offline queue included) and gives the test a
// side door to the backend (to take a lease over behind a holder's back). The replica fixtures
// import this file too, so it must not import vitest.
//
// Another store (PostgreSQL) plugs in by appending an entry here.
// Client libraries load lazily, so a replica process loads only the one it uses.
import type { LeaseClientOptions } from '../../src/index.js';
import { postgresStoreFactories } from './fixtures/postgres-store/store-factories.js';

export interface ConnectedLeaseClient {
  client: object;
  /** Extra setLeaseClient options this backend needs (e.g. `{ store: 'postgres' }`). */
  options?: Partial<LeaseClientOptions>;
  close(): Promise<void>;
}

/** Direct access to the backend, bypassing the guards (keys are full keys, prefix included). */
export interface StoreSideDoor {
  /** Overwrites `key` with another owner, as if another replica had taken the lease over. */
  takeOver(key: string, owner: string, ttlMs: number): Promise<void>;
  owner(key: string): Promise<string | null>;
  /** Remaining lease in ms; -2 when the key does not exist. */
  remainingMs(key: string): Promise<number>;
  close(): Promise<void>;
}

export interface StoreFactory {
  name: string;
  /** Which server the vitest global setup started for it: `inject(urlKey)`. */
  urlKey: 'redisUrl' | 'postgresUrl' | 'pgbouncerUrl';
  connect(url: string): Promise<ConnectedLeaseClient>;
  sideDoor(url: string): Promise<StoreSideDoor>;
}

async function redisSideDoor(url: string): Promise<StoreSideDoor> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url);
  return {
    async takeOver(key, owner, ttlMs) {
      await redis.del(key);
      await redis.set(key, owner, 'PX', ttlMs);
    },
    owner: (key) => redis.get(key),
    remainingMs: (key) => redis.pttl(key),
    async close() {
      redis.disconnect();
    },
  };
}

export const storeFactories: StoreFactory[] = [
  {
    name: 'ioredis',
    urlKey: 'redisUrl',
    async connect(url) {
      const { Redis } = await import('ioredis');
      const client = new Redis(url);
      client.on('error', () => undefined); // reconnects are expected in the outage tests
      return { client, close: async () => client.disconnect() };
    },
    sideDoor: redisSideDoor,
  },
  {
    name: 'node-redis',
    urlKey: 'redisUrl',
    async connect(url) {
      const { createClient } = await import('redis');
      const client = createClient({ url });
      client.on('error', () => undefined); // node-redis throws on an unhandled 'error' event
      await client.connect();
      return {
        client,
        close: async () => {
          if (client.isOpen) client.destroy();
        },
      };
    },
    sideDoor: redisSideDoor,
  },
  ...postgresStoreFactories,
];

/** The Redis-backed factories: the ones the Redis outage tests (own redis-server) apply to. */
export const redisStoreFactories = storeFactories.filter((factory) => factory.urlKey === 'redisUrl');

export function storeFactory(name: string): StoreFactory {
  const factory = storeFactories.find((f) => f.name === name);
  if (!factory) throw new Error(`no store factory named ${name}; known: ${storeFactories.map((f) => f.name).join(', ')}`);
  return factory;
}
