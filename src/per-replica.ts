/**
 * Marks a scheduled callback as running on every replica by design (metrics flush, cache
 * refresh, heartbeat, in-memory cleanup). Returns `fn` unchanged; the lint rules read the marker
 * and stop asking for a guard, and `grep perReplica` lists every such decision.
 *
 * @example setInterval(perReplica(flushMetrics), 10_000);
 */
export function perReplica<F extends (...args: never[]) => unknown>(fn: F): F {
  return fn;
}
