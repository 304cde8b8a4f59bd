// The class whose instance a dependency-injection container lookup returns: `BillingService` of
// `app.get(BillingService)`, `moduleRef.resolve(BillingService)`, `container.get(BillingService)`.
import type { TSESTree } from '@typescript-eslint/utils';
import { unwrapExpression } from './unwrapped-expression.js';
import { memberPropertyName } from './property-names.js';
import { CLASS_NAME, CONTAINER_LOOKUP_METHODS } from '../../src/knowledge/container-lookups.js';

/** The class name handed to a container lookup (`app.get(BillingService)` → `BillingService`), or undefined for any other node. */
export function containerProvidedClass(node: TSESTree.Node): TSESTree.Identifier | undefined {
  const value = unwrapExpression(node, { await: true });
  if (value.type !== 'CallExpression' || value.arguments.length === 0 || value.arguments.length > 2) return undefined;
  const callee = unwrapExpression(value.callee);
  if (callee.type !== 'MemberExpression' || !CONTAINER_LOOKUP_METHODS.has(memberPropertyName(callee) ?? '')) return undefined;
  const [argument] = value.arguments;
  return argument?.type === 'Identifier' && CLASS_NAME.test(argument.name) ? argument : undefined;
}
