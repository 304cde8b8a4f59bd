// The Redis lease store: SET NX PX to acquire, one Lua script each to acquire with a fencing
// token, extend, keep and release.
import { BackendUnavailableError } from '../errors.js';
import type { RedisCommands } from './clients/redis-commands.js';
import { clusterSlot, hashTagForSlot, hashTagOf } from './cluster-slot.js';
import { compareAndDelete } from './scripts/compare-and-delete.lua.js';
import { compareAndExtend } from './scripts/compare-and-extend.lua.js';
import { compareAndKeep } from './scripts/compare-and-keep.lua.js';
import { fencedAcquire } from './scripts/fenced-acquire.lua.js';
import { RAW_ACQUIRE, type KeepOutcome, type LeaseStore, type RawAcquire } from './store.js';

const READY_POLL_MS = 25;
/** How long a key's fencing-token counter outlives its lease (past that, the server clock alone keeps tokens increasing). */
export const FENCE_RETENTION_MS = 24 * 60 * 60 * 1000;
const KEEP_OUTCOMES: readonly KeepOutcome[] = ['lost', 'held', 'restored'];

/**
 * The key holding `leaseKey`'s last fencing token, in the same Redis Cluster hash slot: the lease
 * key's own hash tag when it has one (`{tenant}:job` → `{tenant}:job:fence`), else the whole key
 * as the tag (`job` → `{job}:fence`). A key with a `}` but no hash tag cannot be wrapped: its
 * token key gets a short tag computed to hash to the same slot (`{rg1x}:fence:<key>`).
 */
export function fenceKeyOf(leaseKey: string): string {
  if (hashTagOf(leaseKey) !== undefined) return `${leaseKey}:fence`;
  if (!leaseKey.includes('}')) return `{${leaseKey}}:fence`;
  return `{${hashTagForSlot(clusterSlot(leaseKey))}}:fence:${leaseKey}`;
}

export function createRedisLeaseStore(commands: RedisCommands): LeaseStore & { [RAW_ACQUIRE]: RawAcquire } {
  // When connected (the usual case) the command goes out in the same tick: no extra awaits.
  const untilReady = readyWaiter(commands);
  const whenReady = <T>(signal: AbortSignal | undefined, send: () => Promise<T>): Promise<T> =>
    commands.isReady() ? send() : untilReady(signal).then(send);
  const rawAcquire: RawAcquire = {
    send: (key, owner, ttlMs, deadline) =>
      commands.isReady()
        ? commands.setIfAbsentReply(key, owner, ttlMs)
        : untilReady(deadline.signal()).then(() => commands.setIfAbsentReply(key, owner, ttlMs)),
    won: (reply) => reply === 'OK',
  };
  return {
    [RAW_ACQUIRE]: rawAcquire,
    kind: 'redis',
    acquire: (key, owner, ttlMs, signal) => whenReady(signal, () => commands.setIfAbsent(key, owner, ttlMs)),
    acquireFenced: (key, owner, ttlMs, signal) => {
      const send = () =>
        commands.runScript(fencedAcquire, [key, fenceKeyOf(key)], [owner, String(ttlMs), FENCE_RETENTION_ARG]).then(toToken);
      return commands.isReady() ? send() : untilReady(signal).then(send);
    },
    extend: (key, owner, ttlMs, signal) => {
      const send = () => commands.runScript(compareAndExtend, [key], [owner, String(ttlMs)]).then(isOne);
      return commands.isReady() ? send() : untilReady(signal).then(send);
    },
    keep: (key, owner, ttlMs, signal) => {
      const send = () => commands.runScript(compareAndKeep, [key], [owner, String(ttlMs)]).then(toKeepOutcome);
      return commands.isReady() ? send() : untilReady(signal).then(send);
    },
    release: (key, owner, signal) =>
      commands.isReady()
        ? commands.runScript(compareAndDelete, [key], [owner]).then(isOne)
        : untilReady(signal).then(() => commands.runScript(compareAndDelete, [key], [owner]).then(isOne)),
  };
}

const isOne = (reply: unknown) => Number(reply) === 1;
const toToken = (reply: unknown) => {
  const token = Number(reply);
  return token > 0 ? token : null;
};
const toKeepOutcome = (reply: unknown): KeepOutcome => KEEP_OUTCOMES[Number(reply)] ?? 'lost';
const FENCE_RETENTION_ARG = String(FENCE_RETENTION_MS);

/**
 * `untilReady(signal)` resolves once the client is connected, so a command is never parked in an
 * offline queue: a queued SET that runs after the guard gave up would silently claim the period
 * for nobody. Rejects when `signal` aborts first, or at once when the client will not connect by
 * itself. However many calls wait, the client gets ONE "ready" listener and one poll (no
 * MaxListenersExceededWarning during a reconnect under load).
 */
function readyWaiter(commands: RedisCommands): (signal: AbortSignal | undefined) => Promise<void> {
  const waiting = new Set<() => void>();
  let unsubscribe: (() => void) | undefined;
  let poll: NodeJS.Timeout | undefined;
  const check = () => {
    if (!commands.isReady()) return;
    for (const wake of [...waiting]) wake();
  };
  const stopWatching = () => {
    if (waiting.size > 0) return;
    clearInterval(poll);
    unsubscribe?.();
    poll = undefined;
    unsubscribe = undefined;
  };
  return (signal) => {
    if (commands.isReady()) return Promise.resolve();
    const notReady = (cause?: unknown) => new BackendUnavailableError(`Redis is not connected (${commands.describeState()})`, { cause });
    if (!signal || !commands.mayBecomeReady()) return Promise.reject(notReady());
    if (signal.aborted) return Promise.reject(notReady(signal.reason));
    return new Promise<void>((resolve, reject) => {
      const wake = () => {
        done();
        resolve();
      };
      const onAbort = () => {
        done();
        reject(notReady(signal.reason));
      };
      function done() {
        waiting.delete(wake);
        signal!.removeEventListener('abort', onAbort);
        stopWatching();
      }
      waiting.add(wake);
      signal.addEventListener('abort', onAbort, { once: true });
      if (!unsubscribe) {
        // Some clients (clusters) emit no "ready" event; the poll covers them.
        poll = setInterval(check, READY_POLL_MS);
        unsubscribe = commands.onReady(check);
      }
    });
  };
}
