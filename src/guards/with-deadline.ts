import { setMaxListeners } from 'node:events';
import { BackendTimeoutError } from '../errors.js';

/**
 * Runs one backend operation with a deadline: rejects with a BackendTimeoutError at `timeoutMs`.
 * The operation gets a signal that aborts at the deadline (a store that has not sent its command
 * yet must then not send it). If the operation still finishes later, `onLate` sees its value (so
 * a claim that landed after we gave up can be undone); a late failure is swallowed, never
 * unhandled.
 */
export function withDeadline<T>(
  timeoutMs: number,
  what: string,
  operation: (signal: AbortSignal) => Promise<T>,
  onLate?: (value: T) => void,
): Promise<T> {
  let pending: Promise<T>;
  try {
    pending = operation(deadlineSignal(timeoutMs));
  } catch (error) {
    pending = Promise.reject(error);
  }
  let timedOut = false;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      timedOut = true;
      reject(new BackendTimeoutError(`${what} did not complete within ${timeoutMs} ms`));
    }, timeoutMs);
    pending.then(
      (value) => {
        clearTimeout(timer);
        if (!timedOut) resolve(value);
        else if (onLate) {
          try {
            onLate(value);
          } catch {
            // onLate is best effort.
          }
        }
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (!timedOut) reject(error);
      },
    );
  });
}

// Creating an AbortSignal costs more CPU than the rest of a claim, so operations started within
// the same few milliseconds share one, aborted just after the latest of their deadlines. The
// per-call timer above still rejects each call at exactly its own deadline.
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
