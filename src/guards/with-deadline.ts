import { setMaxListeners } from 'node:events';
import { BackendTimeoutError } from '../errors.js';
import { Deadline } from './deadline-queue.js';

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
