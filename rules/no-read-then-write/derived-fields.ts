// A field computed from another field of the row is not stale on its own (stale-change.ts): a
// second writer computes it from the same row. It is when the same write changes that other field
// in the database (`{ $inc: { points: n }, $set: { rank: rankFor(row.points + n) } }`): two writers
// both read 40 points, both add 10 in the database (60), and both set the rank of 50 — the derived
// field no longer follows the field it is derived from.
import { atomicChangesOf } from './checked-bounds.js';
import type { FieldChange, ReadSite, WriteSite } from './model.js';
import { isStaleChange } from './stale-change.js';

/** Whether a change `write` sends is stale: `isStaleChange`, or derived from a field the write changes atomically. */
export function staleChangeIn(write: WriteSite): (read: ReadSite, change: FieldChange) => boolean {
  let atomic: ReadonlySet<string> | undefined;
  return (read, change) => {
    if (isStaleChange(read, change)) return true;
    const source = change.readField;
    if (source === undefined || source === null || source === change.field || read.many) return false;
    atomic ??= new Set(atomicChangesOf(write).map((c) => c.field));
    return atomic.has(source);
  };
}
