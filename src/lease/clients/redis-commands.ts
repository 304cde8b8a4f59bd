import type { RedisScript } from '../scripts/redis-script.js';

/**
 * The two things the Redis lease store needs from a client, whatever its family: one claim
 * command and one "run this script with this key and these args" primitive. Each client family
 * (ioredis/iovalkey, node-redis) gets one small adapter to this shape.
 */
export interface RedisCommands {
  /** `'ioredis'` or `'node-redis'`, for logs. */
  readonly family: string;
  /** `SET key value NX PX ttlMs`; true when the key was set. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** The same command resolving the server's reply (`'OK'` when set, null otherwise). */
  setIfAbsentReply(key: string, value: string, ttlMs: number): Promise<unknown>;
  /** EVALSHA, falling back to EVAL when the server answers NOSCRIPT. `keys` share one hash slot. */
  runScript(script: RedisScript, keys: readonly string[], args: readonly string[]): Promise<unknown>;
  /** True when a command sent now goes straight to the server, not into an offline queue. */
  isReady(): boolean;
  /** False when the client will not connect by itself (never connected, or closed by the app). */
  mayBecomeReady(): boolean;
  /** A short description of the connection state, for errors ("status reconnecting"). */
  describeState(): string;
  /** Subscribes to "became ready"; returns the unsubscribe function. */
  onReady(listener: () => void): () => void;
}

/** Redis answers NOSCRIPT when the script cache does not hold the SHA (restart, failover, flush). */
export function isNoScriptError(error: unknown): boolean {
  return error instanceof Error && /^NOSCRIPT\b/.test(error.message);
}

/** Subscribes with `on`/`off` (or `removeListener`) when the client is an EventEmitter. */
export function subscribe(client: unknown, event: string, listener: () => void): () => void {
  const emitter = client as {
    on?: (event: string, listener: () => void) => unknown;
    off?: (event: string, listener: () => void) => unknown;
    removeListener?: (event: string, listener: () => void) => unknown;
  };
  if (typeof emitter.on !== 'function') return () => undefined;
  emitter.on(event, listener);
  return () => {
    if (typeof emitter.off === 'function') emitter.off(event, listener);
    else emitter.removeListener?.(event, listener);
  };
}
