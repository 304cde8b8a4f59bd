// Each replica reports its own process metrics: this one runs on every replica by design, and
// perReplica() says so, so neither the lint rule nor the codemod asks for a guard.
import { perReplica } from 'replica-guard';
import { recordSideEffect } from '../side-effects.js';

async function flushMetrics() {
  const { heapUsed } = process.memoryUsage();
  recordSideEffect('metrics', { heapUsed });
}

export function startMetricsFlush() {
  return setInterval(perReplica(flushMetrics), 1000);
}
