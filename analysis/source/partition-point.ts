// The one binary search the rules and the codemod share: offsets, tokens, spans and statements are
// kept in text order, and "where does the first one past this position stand" is asked per node or
// per finding — by halves, so that a big file costs its depth and not its length.

/**
 * The first index from `from` at which `before` is false, for a list where `before` holds on a
 * prefix and fails on the rest (`items.length` when it holds throughout).
 */
export function partitionPoint<T>(items: readonly T[], before: (item: T) => boolean, from = 0): number {
  let low = from;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (before(items[middle]!)) low = middle + 1;
    else high = middle;
  }
  return low;
}
