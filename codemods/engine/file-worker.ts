// The worker-thread entry of `--concurrency`: builds the same Engine as the main thread (from
// registry names) and answers each batch of paths with their outcomes. Built as
// dist/codemod-worker.js; started by worker-pool.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { Engine } from './engine.js';
import { findTransforms } from '../registry.js';
import type { FromWorker, ToWorker, WorkerSetup } from './worker-pool.js';

const setup = workerData as WorkerSetup;
const engine = new Engine(findTransforms(setup.transforms), {
  service: setup.service,
  root: setup.root,
  settings: setup.settings,
  ttlMs: setup.ttlMs,
});

parentPort!.on('message', (message: ToWorker) => {
  const outcomes = message.paths.map((path) => engine.transformPath(path));
  parentPort!.postMessage({ type: 'outcomes', outcomes } satisfies FromWorker);
});
