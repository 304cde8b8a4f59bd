// Locks kept in this process: a set of held keys, a promise chain, an async-mutex per key.
import { Mutex } from 'async-mutex';

const held = new Set<string>();

/** Runs `task` unless `name` is already running here. */
export async function withLock<T>(name: string, task: () => Promise<T>): Promise<T | undefined> {
  if (held.has(name)) return undefined;
  held.add(name);
  try {
    return await task();
  } finally {
    held.delete(name);
  }
}

let tail: Promise<unknown> = Promise.resolve();

/** Runs `task` after every task queued before it. */
export function runLocked<T>(task: () => Promise<T>): Promise<T> {
  const next = tail.then(task);
  tail = next.catch(() => undefined);
  return next;
}

const mutexes = new Map<string, Mutex>();

/** Runs `task` under this process's mutex for `name`. */
export function acquireLock<T>(name: string, task: () => Promise<T>): Promise<T> {
  let mutex = mutexes.get(name);
  if (!mutex) {
    mutex = new Mutex();
    mutexes.set(name, mutex);
  }
  return mutex.runExclusive(task);
}
