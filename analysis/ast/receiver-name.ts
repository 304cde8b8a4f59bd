// The name a receiver goes by, for code read without types: `redis`, `this.userRepository` →
// `userRepository`, `repo['orders']` → `orders`, a call's callee's (`getDb().query` → `getDb`).
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from './property-names.js';

export function receiverName(node: TSESTree.Node): string | undefined {
  if (node.type === 'CallExpression') return receiverName(node.callee);
  if (node.type === 'Identifier') return node.name;
  return memberPropertyName(node);
}
