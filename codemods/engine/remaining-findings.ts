// What the rules still find after a rewrite: a manual marker above each finding's statement (the
// transform's reason when it gave one) and the follow-ups the run's report lists.
import type { Finding } from '../../rules/utils/create-rule.js';
import { fileStyleOf } from './file-style.js';
import { insideLiteral, markerAnchor, type LiteralToken } from './literal-invariant.js';
import { lineStartOf, markerAbove, markerEdits } from './manual-marker.js';
import type { Detection } from './run-detection.js';
import { applyEdits, lineAt, mapOffset, offsetOfLoc } from './text-edits.js';
import type { AnyTransform, ManualNote, TextEdit } from './transform.js';

// Where a finding sits: its narrow `loc` when the rule gave one (a column name inside a SQL
// string can be lines below the call's start), else its node. Markers go above that line, where
// the lint message is.
export const findingOffset = (text: string, finding: Finding): number =>
  finding.loc ? offsetOfLoc(text, finding.loc.start) : finding.node.range[0];

/**
 * The transform's note for a finding still there after the rewrite: the first note at its offset,
 * else the first on its line (offsets mapped through the edits). Indexed once per file: a big
 * generated file has thousands of each, and searching the notes per finding was quadratic.
 */
function notesByPlace(notes: readonly ManualNote[], edits: readonly TextEdit[], text: string) {
  const byOffset = new Map<number, number>();
  const byLine = new Map<number, number>();
  notes.forEach((note, index) => {
    const mapped = mapOffset(edits, note.offset);
    if (!byOffset.has(mapped)) byOffset.set(mapped, index);
    const line = lineAt(text, mapped);
    if (!byLine.has(line)) byLine.set(line, index);
  });
  return (offset: number): ManualNote | undefined => {
    const atOffset = byOffset.get(offset);
    const atLine = byLine.get(lineAt(text, offset));
    const index = atOffset === undefined ? atLine : atLine === undefined ? atOffset : Math.min(atOffset, atLine);
    return index === undefined ? undefined : notes[index];
  };
}

/** One file's rewrite as the marker pass needs it: the rewritten text, what detection still finds, the transforms' notes. */
export interface RewriteAfter {
  path: string;
  rewritten: string;
  after: Detection;
  candidates: readonly AnyTransform[];
  notes: readonly ManualNote[];
  allEdits: readonly TextEdit[];
  /** Findings fixed per transform: each one still found is taken off. */
  fixedBy: Map<string, number>;
}

/** The rewritten text with a marker above each finding still there, the marker edits, and one follow-up per line and transform. */
export function markRemaining(rewrite: RewriteAfter, afterLiterals: readonly LiteralToken[], packageType: 'module' | 'commonjs') {
  const { path, rewritten, after, candidates, notes, allEdits, fixedBy } = rewrite;
  // What is still found needs a human: a marker above its statement (reason from the transform when it gave one).
  const remaining: Array<{ offset: number; anchor: number; reason: string; transform: string }> = [];
  const noteAt = notesByPlace(notes, allEdits, rewritten);
  for (const transform of candidates) {
    for (const finding of after.findings.get(transform.rule.name) ?? []) {
      const offset = findingOffset(rewritten, finding);
      const anchor = markerAnchor(after.sourceCode, offset);
      const note = noteAt(offset);
      const reason =
        markerAbove(rewritten, anchor) ??
        note?.reason ??
        `the ${transform.name} rewrite did not remove this finding of ${transform.rule.name}`;
      remaining.push({ offset, anchor, reason, transform: transform.name });
      fixedBy.set(transform.name, (fixedBy.get(transform.name) ?? 0) - 1);
    }
  }
  const style = fileStyleOf(path, rewritten, after.ast, packageType);
  // A marker line never starts inside a literal (a statement beginning on a template's last line): then the report alone tells.
  const markable = remaining.filter((r) => !insideLiteral(afterLiterals, lineStartOf(rewritten, r.anchor)));
  const markers = markerEdits(
    rewritten,
    markable.map((r) => ({ offset: r.anchor, reason: r.reason })),
    style,
  );
  const final = markers.length > 0 ? applyEdits(rewritten, markers) : rewritten;
  const manual = remaining.map((r) => ({ line: lineAt(final, mapOffset(markers, r.offset)), reason: r.reason, transform: r.transform }));
  const seen = new Set<string>();
  const unique = manual.filter((m) => !seen.has(`${m.line}|${m.transform}`) && seen.add(`${m.line}|${m.transform}`));
  return { final, markers, manual: unique };
}
