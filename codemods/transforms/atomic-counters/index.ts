// `atomic-counters`: for each finding of `no-read-then-write` whose written value is a simple
// `x ± n` of the value read, move the arithmetic into the database (`SET c = c + $1`, Prisma
// `{ increment }`, `$inc`, `increment()`/`decrement()`), so two requests or replicas add up
// instead of overwriting each other. An `if (x < n) throw` check before a decrement becomes a
// bound in the write's filter plus a rows-affected check after it. The read stays: it may serve
// other purposes, and removing it is a human's call. Any other shape is marked manual.
import type { TSESTree } from '@typescript-eslint/utils';
import noReadThenWrite, { type ReadThenWriteFacts } from '../../../rules/no-read-then-write.js';
import { mentionsReadAndWrite } from '../../../rules/no-read-then-write/mentions.js';
import { INCREMENT_METHODS } from '../../../rules/no-read-then-write/atomic-methods.js';
import { ROW_LIBRARIES } from '../../../src/knowledge/orm-reads-writes.js';
import { atomicWriteEdits } from './write-edits.js';
import type { ManualNote, TextEdit, Transform, TransformOutput } from '../../engine/transform.js';

/** Modules of every library the rule knows, and their write methods (a pool passed in imports nothing). */
export const READ_THEN_WRITE_PREFILTER: readonly string[] = [
  ...new Set([...ROW_LIBRARIES.flatMap((entry) => [...entry.modules, ...entry.writes]), ...INCREMENT_METHODS]),
];

export const atomicCounters: Transform<ReadThenWriteFacts> = {
  name: 'atomic-counters',
  rule: noReadThenWrite,
  description:
    'Move `x ± n` read-then-write arithmetic into the database (SET c = c + $1, Prisma increment/decrement, $inc, increment()/decrement()) with any bound kept in the filter.',
  prefilter: READ_THEN_WRITE_PREFILTER,
  mayMatch: mentionsReadAndWrite,

  apply(file, findings): TransformOutput {
    const edits: TextEdit[] = [];
    const manual: ManualNote[] = [];
    const seen = new Set<TSESTree.Node>();
    for (const finding of findings) {
      const facts = finding.facts;
      if (seen.has(facts.write)) continue;
      seen.add(facts.write);
      const result = atomicWriteEdits(file, facts);
      if (typeof result === 'string') manual.push({ offset: finding.node.range[0], reason: result });
      else edits.push(...result);
    }
    return { edits, imports: [], manual };
  },
};
