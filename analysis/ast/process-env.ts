// Node's `process` global and the variables read from its environment, in the plain forms rules
// meet (`process.x`, `globalThis.process.x`; `process.env.X`, `process.env['X']`).
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from './property-names.js';
import { unwrapExpression } from './unwrapped-expression.js';

/** Whether `node` is the `process` global: `process`, `globalThis.process`. */
export function isProcessGlobal(node: TSESTree.Node): boolean {
  const value = unwrapExpression(node);
  return (
    (value.type === 'Identifier' && value.name === 'process') ||
    (value.type === 'MemberExpression' && memberPropertyName(value) === 'process')
  );
}

/** Whether `node` is `process.env` itself. */
export function isProcessEnv(node: TSESTree.Node): boolean {
  const value = unwrapExpression(node);
  return value.type === 'MemberExpression' && memberPropertyName(value) === 'env' && isProcessGlobal(value.object);
}

/** The variable `node` reads as `process.env.X` / `process.env['X']`, or undefined. */
export function processEnvVariable(node: TSESTree.Node): string | undefined {
  const value = unwrapExpression(node);
  return value.type === 'MemberExpression' && isProcessEnv(value.object) ? memberPropertyName(value) : undefined;
}
