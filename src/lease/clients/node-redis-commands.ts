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
  /** A single client's raw command (a cluster's takes a first key and a read-only flag before the arguments). */
  sendCommand?(args: string[]): Promise<unknown>;
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

const isOk = (reply: unknown) => reply === 'OK';

export function nodeRedisCommands(client: NodeRedisLike): RedisCommands {
  // A single client has `isReady`; a cluster only `isOpen` (its slots route per command).
  const single = typeof client.isReady === 'boolean';
  const isReady = () => (single ? client.isReady! : client.isOpen);
  // The claim's SET sent as the words Redis reads on a single client: `set` turns its options
  // object into those words on every call, which at 50 concurrent claims costs about 5 % of the
  // claim rate (measured in docs/performance.md).
  const setIfAbsentReply =
    single && typeof client.sendCommand === 'function'
      ? (key: string, value: string, ttlMs: number) => client.sendCommand!(['SET', key, value, 'NX', 'PX', String(ttlMs)])
      : (key: string, value: string, ttlMs: number) => client.set(key, value, { NX: true, PX: ttlMs });
  return {
    family: 'node-redis',
    setIfAbsent: (key, value, ttlMs) => setIfAbsentReply(key, value, ttlMs).then(isOk),
    setIfAbsentReply,
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
