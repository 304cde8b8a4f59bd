import { lockUntilOrThrow, markRunning } from './mutex.js';

/** Runs a named job under its lock, logging its duration. */
export async function runJob(name: string, run: () => Promise<unknown>, timeoutSeconds: number): Promise<void> {
  const start = Date.now();
  try {
    await lockUntilOrThrow(`job:${name}`, async () => {
      await run();
    }, { ttlMs: timeoutSeconds * 1000 });
  } catch (error) {
    console.error(`job ${name} failed`, error);
  } finally {
    console.info(`job ${name} took ${Date.now() - start} ms`);
  }
}

/** Runs a named job, logging its duration: no lock. */
export async function timeJob(name: string, run: () => Promise<unknown>): Promise<void> {
  const start = Date.now();
  try {
    await run();
  } finally {
    console.info(`job ${name} took ${Date.now() - start} ms`);
  }
}

/** Runs a named job with a running mark nobody reads. */
export async function runMarked(name: string, run: () => Promise<unknown>): Promise<void> {
  await markRunning(`job:${name}`, async () => {
    await run();
  });
}
