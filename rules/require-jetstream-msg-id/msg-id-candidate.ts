// The obvious message id in scope at a publish call: `row.id` inside `for (const row of rows)`,
// `event.id` for an `event` parameter, an `outboxId` variable. Only an unambiguous one: two
// equally good candidates in the nearest scope that has any mean "no suggestion".
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { msgIdCandidateOf } from '../../src/knowledge/jetstream.js';

export function msgIdCandidate(sourceCode: Readonly<TSESLint.SourceCode>, call: TSESTree.Node): string | undefined {
  let scope: TSESLint.Scope.Scope | null;
  try {
    scope = sourceCode.getScope(call);
  } catch {
    return undefined;
  }
  for (; scope; scope = scope.upper) {
    const found: { text: string; rank: number }[] = [];
    for (const variable of scope.variables) {
      const def = variable.defs[0];
      const kind = def?.type as string | undefined;
      if (!def || (kind !== 'Variable' && kind !== 'Parameter' && kind !== 'CatchClause')) continue;
      // A `const` declared after the call is not usable there.
      if (kind === 'Variable' && def.name.range[0] > call.range[0]) continue;
      const candidate = msgIdCandidateOf(variable.name);
      if (candidate) found.push(candidate);
    }
    if (found.length === 0) continue;
    const best = Math.min(...found.map((c) => c.rank));
    const ofBest = found.filter((c) => c.rank === best);
    return ofBest.length === 1 ? ofBest[0]?.text : undefined;
  }
  return undefined;
}
