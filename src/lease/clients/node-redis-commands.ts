// node-redis v4/v5 (`createClient` and `createCluster`).
import type { RedisScript } from '../scripts/redis-script.js';
import { isNoScriptError, subscribe, type RedisCommands } from './redis-commands.js';

interface ScriptOptions {
  keys: string[];
  arguments: string[];
}

export interface NodeRedisLike {
  isOpen: boolean;
  isReady?: boolean;
  set(key: string, value: string, options: { NX: true; PX: number }): Promise<string | null>;
  evalSha(sha1: string, options: ScriptOptions): Promise<unknown>;
  eval(source: string, options: ScriptOptions): Promise<unknown>;
}

/** node-redis exposes a boolean `isOpen` and camelCase `evalSha`. */
export function isNodeRedisLike(client: unknown): client is NodeRedisLike {
  const c = client as Partial<Record<string, unknown>> | null;
  return (
    typeof c === 'object' &&
    c !== null &&
    typeof c.isOpen === 'boolean' &&
    typeof c.set === 'function' &&
    typeof c.evalSha === 'function' &&
    typeof c.eval === 'function'
  );
}

const isOk = (reply: string | null) => reply === 'OK';

export function nodeRedisCommands(client: NodeRedisLike): RedisCommands {
  // A single client has `isReady`; a cluster only `isOpen` (its slots route per command).
  const isReady = () => (typeof client.isReady === 'boolean' ? client.isReady : client.isOpen);
  return {
    family: 'node-redis',
    setIfAbsent: (key, value, ttlMs) => client.set(key, value, { NX: true, PX: ttlMs }).then(isOk),
    setIfAbsentReply: (key, value, ttlMs) => client.set(key, value, { NX: true, PX: ttlMs }),
    runScript(script: RedisScript, keys, args) {
      const options = { keys: [...keys], arguments: [...args] };
      return client.evalSha(script.sha1, options).catch((error: unknown) => {
        if (!isNoScriptError(error)) throw error;
        return client.eval(script.source, options);
      });
    },
    isReady,
    // Not open: connect() was never called (or the app closed it); node-redis will not open itself.
    mayBecomeReady: () => client.isOpen,
    describeState: () =>
      client.isOpen ? 'node-redis client open but not ready (reconnecting)' : 'node-redis client not open (call connect())',
    onReady: (listener) => subscribe(client, 'ready', listener),
  };
}
