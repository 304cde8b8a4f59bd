import { setMaxListeners } from 'node:events';
import { BackendTimeoutError } from '../errors.js';

/**
 * Runs one backend operation with a deadline: rejects with a BackendTimeoutError at `timeoutMs`.
 * The operation gets a signal that aborts at the deadline (a store that has not sent its command
 * yet must then not send it). If the operation still finishes later, `onLate` sees its value (so
 * a claim that landed after we gave up can be undone); a late failure is swallowed, never
 * unhandled. `what` builds the error's wording only when the deadline passes.
 */
export function withDeadline<T>(
  timeoutMs: number,
  what: () => string,
  operation: (signal: AbortSignal) => Promise<T>,
  onLate?: (value: T) => void,
): Promise<T> {
  let pending: Promise<T>;
  try {
    pending = operation(deadlineSignal(timeoutMs));
  } catch (error) {
    pending = Promise.reject(error);
  }
  return race(timeoutMs, what, pending, identity, rethrow, onLate);
}

const identity = <T>(value: T): T => value;
const rethrow = (error: unknown): never => {
  throw error;
};

export function race<T, R>(
  timeoutMs: number,
  what: () => string,
  pending: Promise<T>,
  onValue: (value: T) => R,
  onError: (error: unknown) => R,
  onLate?: (value: T) => void,
): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    const call = new RaceCall(timeoutMs, what, onValue, onError, onLate, resolve, reject);
    pending.then(
      (value) => call.value(value),
      (error: unknown) => call.error(error),
    );
  });
}

/**
 * A pending call in its timeout's list; unlinked the moment it settles, so nothing outlives the
 * call. Subclasses say what happens when the deadline passes first (`timeOut`).
 */
export abstract class Deadline {
  prev: Deadline | null = null;
  next: Deadline | null = null;
  done = false;
  queue: DeadlineQueue | null = null;
  at = 0;

  /** Arms the deadline `timeoutMs` from `now` at once, unless `timeoutMs` is undefined (see `arm`). */
  constructor(timeoutMs?: number, now = performance.now()) {
    if (timeoutMs !== undefined) this.arm(timeoutMs, now);
  }

  /** (Re)arms: `timeOut()` runs `timeoutMs` from `now` unless `finish()` comes first. */
  arm(timeoutMs: number, now = performance.now()): void {
    this.done = false;
    this.at = now + timeoutMs;
    queueFor(timeoutMs).add(this);
  }

  /** Marks the call settled (false if the deadline got there first). */
  finish(): boolean {
    if (this.done) return false;
    this.done = true;
    this.queue?.remove(this);
    return true;
  }

  abstract timeOut(): void;
}

class RaceCall<T, R> extends Deadline {
  constructor(
    private readonly timeoutMs: number,
    private readonly what: () => string,
    private readonly onValue: (value: T) => R,
    private readonly onError: (error: unknown) => R,
    private readonly onLate: ((value: T) => void) | undefined,
    private readonly resolve: (value: R) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    super(timeoutMs);
  }

  value(value: T): void {
    if (!this.finish()) {
      if (this.onLate) {
        try {
          this.onLate(value);
        } catch {
          // onLate is best effort.
        }
      }
      return;
    }
    try {
      this.resolve(this.onValue(value));
    } catch (error) {
      this.reject(error);
    }
  }

  error(error: unknown): void {
    if (this.finish()) this.fail(error);
  }

  timeOut(): void {
    this.fail(new BackendTimeoutError(`${this.what()} did not complete within ${this.timeoutMs} ms`));
  }

  private fail(error: unknown): void {
    try {
      this.resolve(this.onError(error));
    } catch (thrown) {
      this.reject(thrown);
    }
  }
}

/**
 * The pending calls of one timeoutMs in call order (so deadlines ascend), as a doubly linked list
 * with O(1) removal; one unref'd timer fires at the head's deadline.
 */
export class DeadlineQueue {
  private head: Deadline | null = null;
  private tail: Deadline | null = null;
  private timer: NodeJS.Timeout | undefined;

  add(entry: Deadline): void {
    entry.queue = this;
    entry.prev = this.tail;
    if (this.tail) this.tail.next = entry;
    else this.head = entry;
    this.tail = entry;
    if (this.timer === undefined) this.arm(entry.at);
  }

  remove(entry: Deadline): void {
    if (entry.queue !== this) return;
    entry.queue = null;
    if (entry.prev) entry.prev.next = entry.next;
    else this.head = entry.next;
    if (entry.next) entry.next.prev = entry.prev;
    else this.tail = entry.prev;
    entry.prev = entry.next = null;
    // The timer stays armed for the old head; when it fires it re-arms for the current head.
  }

  private arm(at: number): void {
    this.timer = setTimeout(this.fire, Math.max(0, Math.ceil(at - performance.now())));
    // The operation's own socket keeps the process alive while it is pending; the deadline must not.
    this.timer.unref();
  }

  private readonly fire = (): void => {
    this.timer = undefined;
    const now = performance.now();
    while (this.head && this.head.at <= now) {
      const entry = this.head;
      this.remove(entry);
      entry.done = true;
      entry.timeOut();
    }
    if (this.head) this.arm(this.head.at);
  };
}

const queues = new Map<number, DeadlineQueue>();

function queueFor(timeoutMs: number): DeadlineQueue {
  let queue = queues.get(timeoutMs);
  if (!queue) {
    // Bounded: the timeouts in use are a handful of configured values and ttl-derived budgets. A
    // dropped queue keeps working for its pending entries (its timer holds it).
    if (queues.size >= 256) queues.clear();
    queue = new DeadlineQueue();
    queues.set(timeoutMs, queue);
  }
  return queue;
}

// Creating an AbortSignal costs more CPU than the rest of a claim, so operations started within
// the same few milliseconds share one, aborted just after the latest of their deadlines. The
// per-call deadline above still settles each call at exactly its own deadline.
const SHARED_SIGNAL_WINDOW_MS = 10;
const MAX_SHARED_SIGNALS = 32;
const sharedSignals = new Map<number, { signal: AbortSignal; openUntil: number }>();

export function deadlineSignal(timeoutMs: number): AbortSignal {
  const now = performance.now();
  const shared = sharedSignals.get(timeoutMs);
  if (shared && now < shared.openUntil) return shared.signal;
  if (sharedSignals.size >= MAX_SHARED_SIGNALS) sharedSignals.clear();
  const controller = new AbortController();
  // Every waiting operation in the window listens to it (during an outage, many at once).
  setMaxListeners(0, controller.signal);
  sharedSignals.set(timeoutMs, { signal: controller.signal, openUntil: now + SHARED_SIGNAL_WINDOW_MS });
  setTimeout(
    () => controller.abort(new BackendTimeoutError(`the ${timeoutMs} ms deadline passed`)),
    timeoutMs + SHARED_SIGNAL_WINDOW_MS,
  ).unref();
  return controller.signal;
}
