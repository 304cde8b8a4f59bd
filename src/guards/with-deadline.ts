import { setMaxListeners } from 'node:events';
import { BackendTimeoutError } from '../errors.js';

/**
 * Runs one backend operation with a deadline: rejects with a BackendTimeoutError at `timeoutMs`.
 * The operation gets a signal that aborts at the deadline (a store that has not sent its command
 * yet must then not send it). If the operation still finishes later, `onLate` sees its value (so
 * a claim that landed after we gave up can be undone); a late failure is swallowed, never
 * unhandled. `what` builds the error's wording only when the deadline passes.
 *
 * The hot path allocates one promise and one small record: no timer per call. Calls with the same
 * `timeoutMs` have deadlines in call order, so each timeout keeps a FIFO and one timer for its head.
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
  return new Promise<T>((resolve, reject) => {
    const entry: Pending = {
      deadline: performance.now() + timeoutMs,
      settled: false,
      timeOut: () => reject(new BackendTimeoutError(`${what()} did not complete within ${timeoutMs} ms`)),
    };
    queueFor(timeoutMs).add(entry);
    pending.then(
      (value) => {
        if (!entry.settled) {
          entry.settled = true;
          resolve(value);
        } else if (onLate) {
          try {
            onLate(value);
          } catch {
            // onLate is best effort.
          }
        }
      },
      (error: unknown) => {
        if (entry.settled) return;
        entry.settled = true;
        reject(error);
      },
    );
  });
}

interface Pending {
  readonly deadline: number;
  settled: boolean;
  readonly timeOut: () => void;
}

/** The pending calls of one timeoutMs, oldest first; one unref'd timer fires at the oldest unsettled deadline. */
class DeadlineQueue {
  private items: Pending[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | undefined;

  add(entry: Pending): void {
    this.items.push(entry);
    if (this.timer === undefined) this.arm(entry.deadline);
  }

  private arm(deadline: number): void {
    this.timer = setTimeout(this.fire, Math.max(0, Math.ceil(deadline - performance.now())));
    // The operation's own socket keeps the process alive while it is pending; the deadline must not.
    this.timer.unref();
  }

  private readonly fire = (): void => {
    this.timer = undefined;
    const now = performance.now();
    const items = this.items;
    while (this.head < items.length) {
      const entry = items[this.head] as Pending;
      if (!entry.settled) {
        if (entry.deadline > now) break;
        entry.settled = true;
        entry.timeOut();
      }
      this.head += 1;
    }
    if (this.head === items.length) {
      this.items = [];
      this.head = 0;
      return;
    }
    if (this.head > 1024 && this.head * 2 > items.length) {
      this.items = items.slice(this.head);
      this.head = 0;
    }
    this.arm((this.items[this.head] as Pending).deadline);
  };
}

const queues = new Map<number, DeadlineQueue>();

function queueFor(timeoutMs: number): DeadlineQueue {
  let queue = queues.get(timeoutMs);
  if (!queue) {
    // Bounded: the timeouts in use are a handful of configured values (and ttl-derived renewal budgets).
    if (queues.size >= 256) queues.clear();
    queue = new DeadlineQueue();
    queues.set(timeoutMs, queue);
  }
  return queue;
}

// Creating an AbortSignal costs more CPU than the rest of a claim, so operations started within
// the same few milliseconds share one, aborted just after the latest of their deadlines. The
// per-call deadline above still rejects each call at exactly its own deadline.
const SHARED_SIGNAL_WINDOW_MS = 10;
const MAX_SHARED_SIGNALS = 32;
const sharedSignals = new Map<number, { signal: AbortSignal; openUntil: number }>();

function deadlineSignal(timeoutMs: number): AbortSignal {
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
