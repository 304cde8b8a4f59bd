// Small timing helpers for tests that watch real servers: how long an operation took, and
// polling until a condition holds.

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `op` and returns its value with the wall time it took. */
export async function timed<T>(op: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await op();
  return { value, ms: performance.now() - start };
}

/** Polls `probe` every `everyMs` until it resolves true; throws naming `what` after `withinMs`. */
export async function eventually(what: string, probe: () => Promise<boolean>, withinMs = 20_000, everyMs = 50): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await sleep(everyMs);
  }
  throw new Error(`${what} did not happen within ${withinMs} ms`);
}
