// The chain reader as the SQL-side rules name it: one implementation, in analysis/ast/method-chain.ts.
import type { TSESTree } from '@typescript-eslint/utils';
import { chainLinksOf } from '../ast/method-chain.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';

export { isOutermostCall, receiverName, type ChainLink } from '../ast/method-chain.js';

/** The links of the chain ending at `call`, root first (a plain root call `knex('jobs')` included). */
export const methodChain: (call: TSESTree.CallExpression) => ReturnType<typeof chainLinksOf> = chainLinksOf;

/** The expression under `await`, `?.`, `!` and TypeScript wrappers. */
export function unwrap(node: TSESTree.Node): TSESTree.Node {
  return unwrapExpression(node, { await: true });
}
