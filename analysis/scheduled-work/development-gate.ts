// A schedule set up only when the process runs in development (`if (process.env.NODE_ENV ===
// 'development')`, `case 'development':` of a switch on it, `if (isProduction) return;` before it):
// it never runs in a production deployment, so it never runs at two or more replicas.
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from '../ast/property-names.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import {
  DEVELOPMENT_ENVIRONMENTS,
  DEVELOPMENT_FLAG_PATTERN,
  PRODUCTION_FLAG_PATTERN,
  RUN_ENVIRONMENT_NAME_PATTERN,
} from '../../src/knowledge/per-replica.js';

/** The last name of `process.env.NODE_ENV`, `config.isDev`, `IS_DEV` (underscores kept for the flag patterns). */
function lastName(node: TSESTree.Node): string | undefined {
  const value = unwrapExpression(node);
  if (value.type === 'Identifier') return value.name;
  if (value.type === 'MemberExpression') return memberPropertyName(value);
  return undefined;
}

function readsRunEnvironment(node: TSESTree.Node): boolean {
  const name = lastName(node);
  return name !== undefined && RUN_ENVIRONMENT_NAME_PATTERN.test(name.replace(/_/g, ''));
}

function stringValue(node: TSESTree.Node | null | undefined): string | undefined {
  return node?.type === 'Literal' && typeof node.value === 'string' ? node.value.toLowerCase() : undefined;
}

/**
 * Whether `test` holding (or failing, `holds` false) means the process is not in production:
 * `NODE_ENV === 'development'`, `NODE_ENV !== 'production'`, `isDev`, `!isProduction`, either side of `&&`.
 */
export function isDevelopmentOnlyTest(test: TSESTree.Node, holds: boolean): boolean {
  const node = unwrapExpression(test);
  if (node.type === 'UnaryExpression' && node.operator === '!') return isDevelopmentOnlyTest(node.argument, !holds);
  if (node.type === 'LogicalExpression' && node.operator === (holds ? '&&' : '||'))
    return isDevelopmentOnlyTest(node.left, holds) || isDevelopmentOnlyTest(node.right, holds);
  if (node.type === 'BinaryExpression' && ['===', '==', '!==', '!='].includes(node.operator)) {
    const value = stringValue(node.right) ?? stringValue(node.left);
    const other = stringValue(node.right) !== undefined ? node.left : node.right;
    if (value === undefined || !readsRunEnvironment(other)) return false;
    const equal = (node.operator === '===' || node.operator === '==') === holds;
    return equal ? DEVELOPMENT_ENVIRONMENTS.includes(value) : value === 'production' || value === 'prod';
  }
  const name = lastName(node);
  if (name === undefined) return false;
  return holds ? DEVELOPMENT_FLAG_PATTERN.test(name) : PRODUCTION_FLAG_PATTERN.test(name);
}

/**
 * `case 'development':` of a `switch` on the run environment: the case, and the empty cases that
 * fall through into it (`case 'test': case 'development':`), are all development values.
 */
function isDevelopmentCase(switchCase: TSESTree.SwitchCase): boolean {
  if (!readsRunEnvironment(switchCase.parent.discriminant)) return false;
  const cases = switchCase.parent.cases;
  for (let at = cases.indexOf(switchCase); at >= 0; at--) {
    const current = cases[at]!;
    if (current !== switchCase && current.consequent.length > 0) break;
    const value = stringValue(current.test);
    if (value === undefined || !DEVELOPMENT_ENVIRONMENTS.includes(value)) return false;
  }
  return true;
}

/** `node` sits in a development case of a `switch` on the run environment, inside `fn` (its own function). */
export function inDevelopmentCase(node: TSESTree.Node, fn: TSESTree.Node | undefined): boolean {
  for (let current = node.parent; current && current !== fn; current = current.parent)
    if (current.type === 'SwitchCase' && isDevelopmentCase(current)) return true;
  return false;
}
