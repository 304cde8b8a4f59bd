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

/**
 * The same marker for a scheduled method (`@Interval`, `@Cron`, `@Timeout`): a no-op decorator
 * that says every replica runs this method by design. `grep PerReplica` lists every such decision.
 *
 * @example
 * @Interval(10_000)
 * @PerReplica()
 * reportQueueDepth() { gauge.set(this.queue.length); }
 */
export function PerReplica(): <T>(target: object, propertyKey: string | symbol, descriptor: T) => T {
  return (_target, _propertyKey, descriptor) => descriptor;
}
