// Where a read-then-write is reported. The lost update starts where the new value is made from the
// read (`paid = row.paid + n`) and ends at the write that sends it. Next to each other, the write
// (or, for a largest-plus-one, the `+ 1`) is reported alone and the other is read with it; when more
// than a few lines lie between them, the report runs from the one to the other, so both the line
// that computes the value and the line that sends it are inside it.
import type { TSESTree } from '@typescript-eslint/utils';
import type { ReadThenWriteFinding } from './model.js';
import { sentFieldsEnd } from './sent-fields.js';

/** Lines between a computation and its write that still read as one place. */
const NEAR_LINES = 3;

/** Where `finding` is reported: its write, widened to start at the earliest value it sends that was computed more than a few lines above. */
export function reportSpan(finding: ReadThenWriteFinding): TSESTree.SourceLocation {
  const at = finding.loc ?? finding.node.loc;
  let start = at.start;
  for (const { node } of finding.facts.changes) {
    const s = node.loc.start;
    if (s.line < at.start.line - NEAR_LINES && s.line < start.line) start = s;
  }
  return start === at.start ? at : { start, end: sentFieldsEnd(finding.facts, at.end) };
}

/** The `+ 1` of a largest-plus-one, widened down to the name of the call that writes it when that is more than a few lines below. */
export function spanToWrite(value: TSESTree.Node, write: TSESTree.Node): TSESTree.SourceLocation {
  const end = (write.type === 'CallExpression' ? write.callee : write).loc.end;
  return end.line > value.loc.end.line + NEAR_LINES ? { start: value.loc.start, end } : value.loc;
}
