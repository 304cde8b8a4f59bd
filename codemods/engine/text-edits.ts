// Applies edits to a string from the end backwards, so earlier offsets stay valid. Insertions at
// the same offset keep the order they were given in.
import type { TextEdit } from './transform.js';
import { partitionPoint } from '../../analysis/source/partition-point.js';

export class OverlappingEditsError extends Error {
  constructor(a: TextEdit, b: TextEdit) {
    super(`overlapping edits [${a.start}, ${a.end}) and [${b.start}, ${b.end})`);
    this.name = 'OverlappingEditsError';
  }
}

export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const ordered = edits
    .map((edit, index) => ({ edit, index }))
    .sort((a, b) => a.edit.start - b.edit.start || a.edit.end - b.edit.end || a.index - b.index);
  for (let i = 1; i < ordered.length; i += 1) {
    const previous = ordered[i - 1]!.edit;
    const current = ordered[i]!.edit;
    if (current.start < previous.end) throw new OverlappingEditsError(previous, current);
  }
  let out = '';
  let cursor = 0;
  for (const { edit } of ordered) {
    out += text.slice(cursor, edit.start) + edit.text;
    cursor = edit.end;
  }
  return out + text.slice(cursor);
}

// Offsets of every '\n' in the last text asked about, so a line is a binary search: findings are
// placed by the thousand in one big file, and counting from the top for each made it quadratic.
let newlinesOf: { text: string; at: number[] } | undefined;

/** How many of the sorted `values` are below `bound`. */
const countBelow = (values: readonly number[], bound: number): number => partitionPoint(values, (value) => value < bound);

/** 1-based line of `offset` in `text` (lines end at '\n'). */
export function lineAt(text: string, offset: number): number {
  if (newlinesOf?.text !== text) {
    const at: number[] = [];
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) at.push(i);
    newlinesOf = { text, at };
  }
  return 1 + countBelow(newlinesOf.at, offset);
}

interface OffsetMap {
  count: number;
  /** Edit ends, sorted, and the total length change of the edits up to each. */
  ends: number[];
  deltas: number[];
  /** Length inserted by pure insertions at an offset (they stay after a position equal to it). */
  insertedAt: Map<number, number>;
}

// One map per edit list: offsets are mapped through the same edits once per finding and token.
const offsetMaps = new WeakMap<readonly TextEdit[], OffsetMap>();

function offsetMapOf(edits: readonly TextEdit[]): OffsetMap {
  const known = offsetMaps.get(edits);
  if (known?.count === edits.length) return known;
  const sorted = [...edits].sort((a, b) => a.end - b.end);
  const ends: number[] = [];
  const deltas: number[] = [];
  const insertedAt = new Map<number, number>();
  let delta = 0;
  for (const edit of sorted) {
    delta += edit.text.length - (edit.end - edit.start);
    ends.push(edit.end);
    deltas.push(delta);
    if (edit.start === edit.end) insertedAt.set(edit.end, (insertedAt.get(edit.end) ?? 0) + edit.text.length);
  }
  const map = { count: edits.length, ends, deltas, insertedAt };
  offsetMaps.set(edits, map);
  return map;
}

/** Maps an offset in the text before `edits` to the text after them. */
export function mapOffset(edits: readonly TextEdit[], offset: number): number {
  if (edits.length === 0) return offset;
  const map = offsetMapOf(edits);
  const upTo = countBelow(map.ends, offset + 1);
  const delta = upTo === 0 ? 0 : map.deltas[upTo - 1]!;
  return offset + delta - (map.insertedAt.get(offset) ?? 0);
}

// Line starts of the last text asked about: findings are mapped by the thousand in one text, and
// scanning from the top for each made a big file quadratic.
let lineStartsOf: { text: string; starts: number[] } | undefined;

function lineStarts(text: string): number[] {
  if (lineStartsOf?.text === text) return lineStartsOf.starts;
  const starts = [0];
  for (const match of text.matchAll(/\r\n|[\r\n\u2028\u2029]/g)) starts.push(match.index + match[0].length);
  lineStartsOf = { text, starts };
  return starts;
}

/** ESLint's 1-based line / 0-based column to an offset, with ESLint's line breaks. */
export function offsetOfLoc(text: string, position: { line: number; column: number }): number {
  const starts = lineStarts(text);
  const start = starts[Math.min(position.line, starts.length) - 1] ?? 0;
  return Math.min(text.length, start + position.column);
}
