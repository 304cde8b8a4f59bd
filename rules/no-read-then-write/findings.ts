// The engine's pending findings turned into the rule's: one per report position, the library
// chosen from what the read and the write fit and what the file imports, and the bound check that
// guards the write (for the codemod).
import type { DataLibrary } from '../../src/knowledge/orm-reads-writes.js';
import { contains, exits } from './control-flow.js';
import type { PendingFinding, ReadSite, ReadThenWriteFacts, ReadThenWriteFinding, WriteSite } from './model.js';

function libraryOf(read: ReadSite, write: WriteSite, imported: ReadonlySet<DataLibrary>): DataLibrary {
  const shared = write.candidates.length === 1 ? write.candidates : write.candidates.filter((c) => read.candidates.includes(c));
  // A row read out of sight (a middleware's `req.user`, an entity handed in) fits every library the write does.
  const pool = shared.length > 0 ? shared : read.candidates.length > 0 ? read.candidates : write.candidates;
  const order = pool.length === 1 ? pool : [...pool].sort((a, b) => Number(imported.has(b)) - Number(imported.has(a)));
  return order[0] ?? 'sql';
}

/** The findings of `pending` (in walk order) that `keep` accepts, one per report position. */
export function findingsOf(
  pending: readonly PendingFinding[],
  imported: ReadonlySet<DataLibrary>,
  keep?: (facts: ReadThenWriteFacts) => boolean,
): ReadThenWriteFinding[] {
  const seen = new Set<string>();
  const out: ReadThenWriteFinding[] = [];
  for (const { read, write, changes, loc, checkedBound, derivedBound, checkedState, countedTransition } of pending) {
    const at = loc ?? write.reportNode.loc;
    const key = `${at.start.line}:${at.start.column}`;
    if (seen.has(key)) continue;
    const library = libraryOf(read, write, imported);
    const first = changes[0];
    const boundCheck =
      checkedBound ??
      read.boundChecks.find((check) => contains(check, write.node) || (check.range[1] <= write.node.range[0] && exits(check.consequent))) ??
      null;
    const fields = [...new Set(changes.flatMap((c) => (c.field === null ? [] : [c.field])))];
    const facts: ReadThenWriteFacts = {
      library,
      read: read.node,
      write: write.node,
      writeShape: write.shape,
      model: read.model,
      fields,
      changes,
      operator: first?.operator ?? null,
      operand: first?.operand ?? null,
      boundCheck,
      guarded: boundCheck !== null,
      ...(checkedBound || derivedBound ? { checkedBound: true as const } : {}),
      ...(checkedState ? { checkedState } : {}),
      ...(countedTransition ? { countedTransition } : {}),
    };
    if (keep && !keep(facts)) continue;
    seen.add(key);
    out.push({ library, field: fields[0] ?? 'value', node: write.reportNode, loc, facts });
  }
  return out;
}
