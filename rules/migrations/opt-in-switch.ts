// A developer's schema switch left off unless someone turns it on: `synchronize:
// process.env.TYPEORM_SYNCHRONIZE === 'true'`, `synchronize: !!process.env.DB_SYNC`,
// `Boolean(process.env.DB_SYNC)`, `process.env.DB_SYNC || false`, or a `const` holding one of them. Unset — as on a deployed
// replica that nobody configured for it — the option is `false`. A switch that is on unless
// someone turns it off (`process.env.NODE_ENV !== 'production'`, `process.env.DB_SYNC !==
// 'false'`, `process.env.DB_SYNC ?? true`) or a value read elsewhere (`config.get('DB_SYNC')`) is
// not such a switch.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { processEnvVariable } from '../../analysis/ast/process-env.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { constantInitializer } from '../../analysis/sql/sql-text-model.js';
import { DEVELOPMENT_SCHEMA_OPTIONS, SCHEMA_SWITCH_NAME, SWITCHED_ON_VALUES } from '../../src/knowledge/schema-switches.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** The name of one variable read from the environment: `process.env.X`, `process.env['X']`, through `String(…)` or `.toLowerCase()` / `.trim()`. */
function envReadName(node: TSESTree.Node): string | undefined {
  const value = unwrapExpression(node);
  if (value.type === 'MemberExpression') return processEnvVariable(value);
  if (value.type !== 'CallExpression') return undefined;
  const callee = unwrapExpression(value.callee);
  if (callee.type === 'Identifier' && callee.name === 'String')
    return value.arguments.length === 1 ? envReadName(value.arguments[0]!) : undefined;
  const method = callee.type === 'MemberExpression' ? memberPropertyName(callee) : undefined;
  const transforms = callee.type === 'MemberExpression' && (method === 'toLowerCase' || method === 'trim') && value.arguments.length === 0;
  return transforms ? envReadName(callee.object) : undefined;
}

const isEnvRead = (node: TSESTree.Node): boolean => envReadName(node) !== undefined;

/**
 * Whether a truthiness test (`!!process.env.DB_SYNC`, `Boolean(…)`) reads a switch: a variable
 * named for the option it switches (`DB_SYNC`, `TYPEORM_SYNCHRONIZE`). Any other variable
 * (`!!process.env.TYPEORM_DATABASE`) is a value every deployment sets, so the option is on.
 */
function isSwitchRead(node: TSESTree.Node): boolean {
  const name = envReadName(node);
  return name !== undefined && SCHEMA_SWITCH_NAME.test(name);
}

const isSwitchedOnValue = (node: TSESTree.Node): boolean =>
  node.type === 'Literal' && typeof node.value === 'string' && SWITCHED_ON_VALUES.includes(node.value.toLowerCase());

/** `false`, `0` or `undefined`: what an unset switch falls back to when it is off. */
function isOffValue(node: TSESTree.Node): boolean {
  const value = unwrapExpression(node);
  if (value.type === 'Identifier') return value.name === 'undefined';
  return value.type === 'Literal' && (value.value === false || value.value === 0);
}

/** Whether a value is on only when an environment variable is set to turn it on. */
function isOptInSwitch(node: TSESTree.Node, sourceCode: SourceCode, depth: number): boolean {
  const value = unwrapExpression(node);
  switch (value.type) {
    case 'UnaryExpression': {
      // `!!process.env.DB_SYNC`
      const inner = unwrapExpression(value.argument);
      return value.operator === '!' && inner.type === 'UnaryExpression' && inner.operator === '!' && isSwitchRead(inner.argument);
    }
    case 'CallExpression': {
      const callee = unwrapExpression(value.callee);
      return callee.type === 'Identifier' && callee.name === 'Boolean' && value.arguments.length === 1 && isSwitchRead(value.arguments[0]!);
    }
    case 'BinaryExpression':
      if (value.operator !== '===' && value.operator !== '==') return false;
      return (isEnvRead(value.left) && isSwitchedOnValue(value.right)) || (isSwitchedOnValue(value.left) && isEnvRead(value.right));
    case 'LogicalExpression':
      // `process.env.DB_SYNC || false`: the switch's own value, `false` when it is unset.
      if (value.operator !== '&&' && isSwitchRead(value.left) && isOffValue(value.right)) return true;
      // `a === 'true' || b === 'true'`: off unless one is turned on; `a && b`: unless both are.
      if (value.operator === '||') return isOptInSwitch(value.left, sourceCode, depth) && isOptInSwitch(value.right, sourceCode, depth);
      return value.operator === '&&' && (isOptInSwitch(value.left, sourceCode, depth) || isOptInSwitch(value.right, sourceCode, depth));
    case 'Identifier': {
      const init = depth === 0 ? constantInitializer(value, sourceCode) : undefined;
      return init !== undefined && isOptInSwitch(init, sourceCode, depth + 1);
    }
    default:
      return false;
  }
}

/** Whether a schema-write option is a developer's switch that is off unless an environment variable turns it on (`DEVELOPMENT_SCHEMA_OPTIONS`). */
export function isOffUnlessSwitchedOn(option: string, value: TSESTree.Node, sourceCode: SourceCode): boolean {
  return DEVELOPMENT_SCHEMA_OPTIONS.includes(option) && isOptInSwitch(value, sourceCode, 0);
}
