// The Redis lease store: SET NX PX to acquire, one Lua script each to extend and release.
import { BackendUnavailableError } from '../errors.js';
import type { RedisCommands } from './clients/redis-commands.js';
import { compareAndDelete } from './scripts/compare-and-delete.lua.js';
import { compareAndExtend } from './scripts/compare-and-extend.lua.js';
import type { LeaseStore } from './store.js';

const READY_POLL_MS = 25;

export function createRedisLeaseStore(commands: RedisCommands): LeaseStore {
  // When connected (the usual case) the command goes out in the same tick: no extra awaits.
  const whenReady = <T>(signal: AbortSignal | undefined, send: () => Promise<T>): Promise<T> =>
    commands.isReady() ? send() : untilReady(commands, signal).then(send);
  return {
    kind: 'redis',
    acquire: (key, owner, ttlMs, signal) => whenReady(signal, () => commands.setIfAbsent(key, owner, ttlMs)),
    extend: (key, owner, ttlMs, signal) =>
      whenReady(signal, async () => Number(await commands.runScript(compareAndExtend, key, [owner, String(ttlMs)])) === 1),
    release: (key, owner, signal) => whenReady(signal, async () => Number(await commands.runScript(compareAndDelete, key, [owner])) === 1),
  };
}

/**
 * Resolves once the client is connected, so a command is never parked in an offline queue: a
 * queued SET that runs after the guard gave up would silently claim the period for nobody.
 * Rejects when `signal` aborts first, or at once when the client will not connect by itself.
 */
function untilReady(commands: RedisCommands, signal: AbortSignal | undefined): Promise<void> {
  if (commands.isReady()) return Promise.resolve();
  const notReady = (cause?: unknown) => new BackendUnavailableError(`Redis is not connected (${commands.describeState()})`, { cause });
  if (!signal || !commands.mayBecomeReady()) return Promise.reject(notReady());
  if (signal.aborted) return Promise.reject(notReady(signal.reason));
  return new Promise<void>((resolve, reject) => {
    const check = () => {
      if (!commands.isReady()) return;
      cleanup();
      resolve();
    };
    const onAbort = () => {
      cleanup();
      reject(notReady(signal.reason));
    };
    // Some clients (clusters) emit no "ready" event; the poll covers them.
    const poll = setInterval(check, READY_POLL_MS);
    const unsubscribe = commands.onReady(check);
    signal.addEventListener('abort', onAbort, { once: true });
    function cleanup() {
      clearInterval(poll);
      unsubscribe();
      signal!.removeEventListener('abort', onAbort);
    }
  });
}
