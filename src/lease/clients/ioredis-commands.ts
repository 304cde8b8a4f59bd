// ioredis 5 (Redis and Cluster) and iovalkey, which shares its API.
import type { RedisScript } from '../scripts/redis-script.js';
import { isNoScriptError, subscribe, type RedisCommands } from './redis-commands.js';

export interface IoredisLike {
  status: string;
  set(key: string, value: string, px: 'PX', ttlMs: number, nx: 'NX'): Promise<string | null>;
  evalsha(sha1: string, numKeys: number, ...keysAndArgs: string[]): Promise<unknown>;
  eval(source: string, numKeys: number, ...keysAndArgs: string[]): Promise<unknown>;
  connect?(): Promise<void>;
}

/** ioredis and iovalkey expose a string `status` and lowercase `evalsha`. */
export function isIoredisLike(client: unknown): client is IoredisLike {
  const c = client as Partial<Record<string, unknown>> | null;
  return (
    typeof c === 'object' &&
    c !== null &&
    typeof c.status === 'string' &&
    typeof c.set === 'function' &&
    typeof c.evalsha === 'function' &&
    typeof c.eval === 'function'
  );
}

const isOk = (reply: string | null) => reply === 'OK';

export function ioredisCommands(client: IoredisLike): RedisCommands {
  return {
    family: 'ioredis',
    setIfAbsent: (key, value, ttlMs) => client.set(key, value, 'PX', ttlMs, 'NX').then(isOk),
    setIfAbsentReply: (key, value, ttlMs) => client.set(key, value, 'PX', ttlMs, 'NX'),
    runScript(script: RedisScript, keys, args) {
      return client.evalsha(script.sha1, keys.length, ...keys, ...args).catch((error: unknown) => {
        if (!isNoScriptError(error)) throw error;
        return client.eval(script.source, keys.length, ...keys, ...args);
      });
    },
    isReady: () => client.status === 'ready',
    // "end": disconnect()/quit() was called or retries ran out; ioredis will not reconnect.
    mayBecomeReady: () => client.status !== 'end',
    describeState: () => `ioredis status "${client.status}"`,
    onReady(listener) {
      // lazyConnect clients sit in "wait" until something connects them.
      if (client.status === 'wait') client.connect?.().catch(() => undefined);
      return subscribe(client, 'ready', listener);
    },
  };
}
