// The shared binary search (analysis/source/partition-point.ts) answers what a scan from the
// start would: the first index where the predicate fails, from a given index on.
import { describe, expect, test } from 'vitest';
import { partitionPoint } from '../../analysis/source/partition-point.js';

const scan = <T>(items: readonly T[], before: (item: T) => boolean, from = 0): number => {
  let i = from;
  while (i < items.length && before(items[i]!)) i++;
  return i;
};

describe('partitionPoint', () => {
  test('the first offset at or past a bound, on every bound of a sorted list', () => {
    const offsets = [3, 7, 7, 12, 40, 41, 90];
    for (let bound = 0; bound <= 100; bound++) {
      expect(partitionPoint(offsets, (at) => at < bound)).toBe(scan(offsets, (at) => at < bound));
    }
  });

  test('starts at `from`, and answers the length when the predicate always holds', () => {
    const ends = [{ end: 2 }, { end: 5 }, { end: 9 }];
    expect(partitionPoint(ends, (token) => token.end <= 6, 1)).toBe(2);
    expect(partitionPoint(ends, (token) => token.end <= 6, 3)).toBe(3);
    expect(partitionPoint(ends, () => true)).toBe(3);
    expect(partitionPoint([], () => true)).toBe(0);
  });
});
