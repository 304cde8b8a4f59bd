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
