// A schema-write option that is off: the literal `false`. Any other value — `true`, a `const`, an
// environment switch (`process.env.SCHEMA_SYNC === 'true'`, `!!process.env.SCHEMA_SYNC`, a config lookup) —
// may be on where a replica starts, and the deployed replicas are the ones someone configures for it.
import type { TSESTree } from '@typescript-eslint/utils';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';

/** Whether an option's value is the literal `false` (through parentheses and `as` casts). */
export function isOptionOff(value: TSESTree.Node): boolean {
  const node = unwrapExpression(value);
  return node.type === 'Literal' && node.value === false;
}
