// A statement that only tallies in this process's memory: `stats.ticks += 1;`, `runs++;`,
// `metrics.lastSweepAt = new Date().toISOString();`, `state.lastCount = 0;`. It writes a field of a
// module or instance value (or a local count) from literals, other names and the clock; nothing it does
// awaits, calls into other code or leaves the process. A tick may keep such tallies before it takes its
// lease, or around the call that does its work.
import type { TSESTree } from '@typescript-eslint/utils';
import { PURE_GLOBALS } from '../../src/knowledge/work-effects.js';

/** `Date.now()`, `new Date().toISOString()`, `Math.max(a, b)`: a call rooted at a pure global or at `new Date()`. */
function isPureCall(call: TSESTree.CallExpression): boolean {
  let node: TSESTree.Node = call.callee;
  while (node.type === 'MemberExpression' || node.type === 'CallExpression')
    node = node.type === 'MemberExpression' ? node.object : node.callee;
  const root = node.type === 'NewExpression' ? node.callee : node;
  return root.type === 'Identifier' && PURE_GLOBALS.includes(root.name);
}

/** A target of a tally: a name or a field of one (`count`, `stats.ticks`, `this.metrics.last`). */
function isTallyTarget(node: TSESTree.Node): boolean {
  if (node.type === 'Identifier') return true;
  return (
    node.type === 'MemberExpression' && !node.computed && isTallyTarget(node.object.type === 'ThisExpression' ? node.property : node.object)
  );
}

/** Whether the value is made of literals, names, fields, operators and calls of the clock or pure globals, nothing else. */
function isPlainValue(value: TSESTree.Node): boolean {
  switch (value.type) {
    case 'Literal':
    case 'Identifier':
    case 'ThisExpression':
      return true;
    case 'MemberExpression':
      return isPlainValue(value.object) && (!value.computed || isPlainValue(value.property));
    case 'TemplateLiteral':
      return value.expressions.every(isPlainValue);
    case 'BinaryExpression':
    case 'LogicalExpression':
      return isPlainValue(value.left) && isPlainValue(value.right);
    case 'UnaryExpression':
      return value.operator !== 'delete' && isPlainValue(value.argument);
    case 'ConditionalExpression':
      return isPlainValue(value.test) && isPlainValue(value.consequent) && isPlainValue(value.alternate);
    case 'TSAsExpression':
    case 'TSNonNullExpression':
      return isPlainValue(value.expression);
    case 'CallExpression':
      return isPureCall(value) && value.arguments.every(isPlainValue);
    case 'NewExpression':
      return value.callee.type === 'Identifier' && PURE_GLOBALS.includes(value.callee.name) && value.arguments.every(isPlainValue);
    default:
      return false;
  }
}

/** Whether the statement only tallies in this process's memory (see the file's head). */
export function isInMemoryTally(statement: TSESTree.Node): boolean {
  if (statement.type !== 'ExpressionStatement') return false;
  const expression = statement.expression;
  if (expression.type === 'UpdateExpression') return isTallyTarget(expression.argument);
  return expression.type === 'AssignmentExpression' && isTallyTarget(expression.left) && isPlainValue(expression.right);
}
