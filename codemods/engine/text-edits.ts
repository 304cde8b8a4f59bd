// Applies edits to a string from the end backwards, so earlier offsets stay valid. Insertions at
// the same offset keep the order they were given in.
import type { TextEdit } from './transform.js';

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

/** 1-based line of `offset` in `text`. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

/** Maps an offset in the text before `edits` to the text after them. */
export function mapOffset(edits: readonly TextEdit[], offset: number): number {
  let delta = 0;
  for (const edit of edits)
    if (edit.end <= offset && !(edit.start === offset && edit.end === offset)) delta += edit.text.length - (edit.end - edit.start);
  return offset + delta;
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
