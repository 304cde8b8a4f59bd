// `// replica-guard: manual — <why>` above a finding the codemod could not rewrite. The rule keeps
// reporting the finding; the marker tells the reader why the codemod left it, and is never
// written twice.
import { indentationAt } from './file-style.js';
import type { FileStyle } from './file-style.js';
import type { TextEdit } from './transform.js';

export const MARKER_PREFIX = 'replica-guard: manual';

/** Start offset of the line containing `offset`. */
export function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** The reason in the marker on the line above `offset`, if there is one. */
export function markerAbove(text: string, offset: number): string | undefined {
  const lineStart = lineStartOf(text, offset);
  if (lineStart === 0) return undefined;
  const previousStart = lineStartOf(text, lineStart - 1);
  const previous = text.slice(previousStart, lineStart).trim();
  const match = /^\/\/\s*replica-guard: manual\s*(?:—|--|-)?\s*(.*)$/.exec(previous);
  return match ? (match[1] ?? '').trim() : undefined;
}

export function markerText(reason: string): string {
  return `// ${MARKER_PREFIX} — ${reason.replace(/\s+/g, ' ').trim()}`;
}

/** One marker edit per line that needs one and does not have one yet. */
export function markerEdits(text: string, notes: ReadonlyArray<{ offset: number; reason: string }>, style: FileStyle): TextEdit[] {
  const byLine = new Map<number, string>();
  for (const note of notes) {
    const lineStart = lineStartOf(text, note.offset);
    if (byLine.has(lineStart) || markerAbove(text, note.offset) !== undefined) continue;
    byLine.set(lineStart, note.reason);
  }
  return [...byLine].map(([lineStart, reason]) => ({
    start: lineStart,
    end: lineStart,
    text: `${indentationAt(text, lineStart)}${markerText(reason)}${style.eol}`,
  }));
}
