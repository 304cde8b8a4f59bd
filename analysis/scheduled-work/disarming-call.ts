// A call back into the function that armed a timer, made so that it does not arm it again: the
// timer sits under a condition on one of the function's parameters (`if (isTyping) { … setTimeout(…) }`)
// and the call passes a literal `false` for it (`this.onTyping(channel, user, false)`). A per-event
// debounce that clears its own indicator, not a loop.
import type { TSESTree } from '@typescript-eslint/utils';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import type { FunctionLike } from './work-function.js';

/** The names a condition requires to hold: `flag`, `flag && …`. */
function requiredNames(test: TSESTree.Node): string[] {
  const node = unwrapExpression(test);
  if (node.type === 'Identifier') return [node.name];
  if (node.type === 'LogicalExpression' && node.operator === '&&') return [...requiredNames(node.left), ...requiredNames(node.right)];
  return [];
}

/** The parameter names `schedule` needs true to be armed inside `setter` (the tests of the `if`s it sits in the consequent of). */
function namesRequiredAround(schedule: TSESTree.Node, setter: FunctionLike): Set<string> {
  const names = new Set<string>();
  let child: TSESTree.Node = schedule;
  for (let current = schedule.parent; current && current !== setter; child = current, current = current.parent)
    if (current.type === 'IfStatement' && child === current.consequent) for (const name of requiredNames(current.test)) names.add(name);
  return names;
}

/** Whether `call` (a call of `setter`) passes `false` for a parameter that arming `schedule` requires. */
export function skipsArming(call: TSESTree.CallExpression, setter: FunctionLike, schedule: TSESTree.Node): boolean {
  const required = namesRequiredAround(schedule, setter);
  if (required.size === 0) return false;
  return setter.params.some((param, i) => {
    const argument = call.arguments[i];
    return param.type === 'Identifier' && required.has(param.name) && argument?.type === 'Literal' && argument.value === false;
  });
}
