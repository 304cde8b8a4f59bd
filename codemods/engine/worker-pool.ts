// The codemod's per-file phase (read + transformFile) spread over worker threads and this one.
// Each worker builds its own Engine from the transform names and options in `WorkerSetup`; this
// thread hands out small batches of paths on demand (a worker gets the next one when it answers),
// so one big file holds up one batch, not a fixed share of the run, and works through the same
// queue itself. Results come back in discovery order. A worker that dies fails the whole run:
// never a hang, never a silent gap.
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FileOutcome } from './report.js';
import type { LintConfigs } from './lint-config.js';

/** What each worker needs to build the same Engine as the main thread (structured-cloned). */
export interface WorkerSetup {
  /** Registry names; a worker cannot receive transform objects. */
  transforms: string[];
  service?: string;
  root?: string;
  lintConfigs?: LintConfigs;
  settings?: Record<string, unknown>;
  ttlMs?: number;
}

/** main → worker: transform these paths; worker → main: their outcomes, in the same order. */
export type ToWorker = { type: 'batch'; paths: string[] };
export type FromWorker = { type: 'outcomes'; outcomes: FileOutcome[] };

/** The worker entry point: a module URL, or (`eval`) a script that loads it. */
export interface WorkerScript {
  entry: URL | string;
  eval?: boolean;
}

export class CodemodWorkerError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CodemodWorkerError';
  }
}

/**
 * `--concurrency auto`: the cores not already busy (cores − the 1-minute load average, rounded
 * down), at least 1 and at most 8. On a machine whose cores are taken a worker only adds its
 * start-up and a second JIT warm-up, which measurably slows the run (docs/performance.md).
 */
export function autoConcurrency(cores = availableParallelism(), load = loadavg()[0] ?? 0): number {
  return Math.max(1, Math.min(8, cores - Math.floor(load)));
}

/** Files per batch: small, so the tail of a run is spread evenly over the workers. */
export const BATCH_SIZE = 8;

/**
 * Where the worker entry lives: `codemod-worker.js` next to the bundle when built;
 * `file-worker.ts` next to this file when running from source (tests, benchmarks), loaded with
 * tsx's `tsImport` — on Node 20 a worker ignores loader hooks given as `execArgv: ['--import',
 * 'tsx']`. `undefined` when it cannot be found (the CommonJS build has no `import.meta.url`):
 * the caller stays serial.
 */
export function fileWorkerScript(): WorkerScript | undefined {
  const here = (import.meta as { url?: unknown }).url;
  if (typeof here !== 'string') return undefined;
  if (here.endsWith('.ts')) {
    const [tsx, worker] = [import.meta.resolve('tsx/esm/api'), new URL('./file-worker.ts', here).href].map((s) => JSON.stringify(s));
    return { entry: `import(${tsx!}).then((tsx) => tsx.tsImport(${worker!}, ${JSON.stringify(here)}));`, eval: true };
  }
  const entry = new URL('./codemod-worker.js', here);
  return existsSync(fileURLToPath(entry)) ? { entry } : undefined;
}

export interface PoolOptions {
  /** Worker threads to start. */
  workers: number;
  script: WorkerScript;
  /**
   * This thread's share: it takes batches from the same queue while the workers start and run,
   * so `--concurrency 2` is this thread plus one worker — one start-up to pay, not two.
   */
  local?: (path: string) => FileOutcome;
  batchSize?: number;
  onFileDone?: (path: string) => void;
}

/** Batches each worker holds at once: the next is already queued when one is answered. */
const IN_FLIGHT = 2;
/** This thread's batch: one file, then it yields so worker answers get their next batch. */
const LOCAL_BATCH = 1;

/** Runs `paths` through the workers (and `local`); resolves to one outcome per path, in order. */
export function transformInWorkers(paths: readonly string[], setup: WorkerSetup, options: PoolOptions): Promise<FileOutcome[]> {
  const batchSize = Math.max(1, options.batchSize ?? BATCH_SIZE);
  const outcomes: FileOutcome[] = new Array<FileOutcome>(paths.length);
  const workerCount = Math.max(options.local ? 0 : 1, Math.min(options.workers, Math.ceil(paths.length / batchSize)));
  return new Promise<FileOutcome[]>((resolvePool, rejectPool) => {
    const workers: Worker[] = [];
    let next = 0;
    let received = 0;
    let settled = false;
    const finish = (error?: Error): void => {
      if (settled) return;
      settled = true;
      for (const worker of workers) void worker.terminate();
      if (error) rejectPool(error);
      else resolvePool(outcomes);
    };
    const take = (size: number): { start: number; paths: string[] } | undefined => {
      if (next >= paths.length) return undefined;
      const batch = { start: next, paths: paths.slice(next, next + size) };
      next += batch.paths.length;
      return batch;
    };
    const store = (start: number, done: readonly FileOutcome[]): void => {
      done.forEach((outcome, i) => {
        outcomes[start + i] = outcome;
        options.onFileDone?.(outcome.path);
      });
      received += done.length;
      if (received === paths.length) finish();
    };
    if (paths.length === 0) return finish();
    for (let id = 0; id < workerCount && !settled; id++) {
      let worker: Worker;
      try {
        worker = new Worker(options.script.entry, { workerData: setup, eval: options.script.eval ?? false });
      } catch (error) {
        return finish(
          new CodemodWorkerError(`could not start a codemod worker (${error instanceof Error ? error.message : String(error)})`, {
            cause: error,
          }),
        );
      }
      workers.push(worker);
      // The batches this worker holds, oldest first (it answers in order); named in a crash message.
      const held: Array<{ start: number; paths: string[] }> = [];
      const send = (): void => {
        const batch = take(batchSize);
        if (!batch) return;
        held.push(batch);
        worker.postMessage({ type: 'batch', paths: batch.paths } satisfies ToWorker);
      };
      const during = (): string => (held.length > 0 ? ` while transforming ${held.flatMap((b) => b.paths).join(', ')}` : '');
      worker.on('message', (message: FromWorker) => {
        if (settled) return;
        const batch = held[0];
        if (message.type !== 'outcomes' || !batch || message.outcomes.length !== batch.paths.length) {
          return finish(new CodemodWorkerError(`a codemod worker answered out of turn${during()}`));
        }
        held.shift();
        store(batch.start, message.outcomes);
        send();
      });
      worker.on('error', (error) =>
        finish(new CodemodWorkerError(`a codemod worker crashed${during()}: ${error.message}`, { cause: error })),
      );
      worker.on('messageerror', (error) =>
        finish(
          new CodemodWorkerError(`a codemod worker sent a message that could not be read${during()}: ${error.message}`, { cause: error }),
        ),
      );
      worker.on('exit', (code) =>
        finish(new CodemodWorkerError(`a codemod worker exited (code ${code})${during()} before the run was done`)),
      );
      for (let k = 0; k < IN_FLIGHT; k++) send();
    }
    const local = options.local;
    if (!local) return;
    const work = (): void => {
      if (settled) return;
      const batch = take(LOCAL_BATCH);
      if (!batch) return;
      try {
        store(batch.start, batch.paths.map(local));
      } catch (error) {
        return finish(error instanceof Error ? error : new Error(String(error)));
      }
      // Back to the event loop between batches, so a worker that answered gets its next batch.
      setImmediate(work);
    };
    setImmediate(work);
  });
}
