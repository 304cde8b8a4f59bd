// Where the file shows that no second writer races a read's write-back although no lock is named:
// both run in one MongoDB transaction (document-transactions.ts), or the row is one every caller of
// the function claimed first with a checked conditional transition (claimed-rows.ts), or a
// parameter every caller hands a row the file leased (leased-rows.ts), or the write releases a claim
// the file takes on the row (released-claims.ts).
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { inDocumentTransaction } from './document-transactions.js';
import { readOfClaimedRow } from './claimed-rows.js';
import { readOfLeasedRow } from './leased-rows.js';
import { releasesFileClaim } from './released-claims.js';

/** Whether the write-back of `facts.read` by `facts.write` is held from other writers (see the file's head). */
export function heldFromOtherWriters(
  facts: { read: TSESTree.Node; write: TSESTree.Node },
  sourceCode: Readonly<TSESLint.SourceCode>,
): boolean {
  return (
    inDocumentTransaction(facts.read, facts.write) ||
    readOfClaimedRow(facts.read, facts.write, sourceCode) ||
    readOfLeasedRow(facts.read, sourceCode) ||
    releasesFileClaim(facts.write, sourceCode)
  );
}
