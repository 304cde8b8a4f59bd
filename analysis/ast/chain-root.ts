// Where a chain of members starts: `fs` of `fs.promises.rm`, `this` of `this.repo.save`, `result` of
// `result.rows`. With `calls`, calls are walked through too (`db` of `db.query(…).then(…)`); with
// `unwrap`, TypeScript wrappers (`'wrappers'`) or those and `await` (`'await'`) on the way
// (`(await q).rows`). One walk for every rule that asks.
import type { TSESTree } from '@typescript-eslint/utils';

import { unwrapExpression } from './unwrapped-expression.js';

export interface ChainWalk {
  calls?: boolean;
  unwrap?: 'wrappers' | 'await';
}

/** The node a member chain starts from (an identifier, `this`, a call, a literal …). */
export function chainStart(node: TSESTree.Node, walk: ChainWalk = {}): TSESTree.Node {
  const step = (next: TSESTree.Node): TSESTree.Node =>
    walk.unwrap === undefined ? next : unwrapExpression(next, { await: walk.unwrap === 'await' });
  let current = step(node);
  for (;;) {
    if (current.type === 'MemberExpression') current = step(current.object);
    else if (walk.calls && current.type === 'CallExpression') current = step(current.callee);
    else return current;
  }
}

/** The identifier a member chain starts from, when it starts from one. */
export function chainRoot(node: TSESTree.Node, walk: ChainWalk = {}): TSESTree.Identifier | undefined {
  const start = chainStart(node, walk);
  return start.type === 'Identifier' ? start : undefined;
}
