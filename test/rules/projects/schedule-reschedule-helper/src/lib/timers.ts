/** Runs `next` once after `delayMs`; loops call it again at their end. */
export function scheduleNext(next: () => void, delayMs = 30_000): NodeJS.Timeout {
  return setTimeout(next, delayMs);
}

export function later(next: () => void): void {
  scheduleNext(() => next(), 5_000);
}
