// Whether a node sits in a React effect (`useEffect(() => { … })`): a timer started there runs
// in each user's browser while a component is mounted, not on the server.
import type { TSESTree } from '@typescript-eslint/utils';
import { compiledCallee } from '../../analysis/ast/compiled-callee.js';

const EFFECT_HOOKS: ReadonlySet<string> = new Set(['useEffect', 'useLayoutEffect', 'useInsertionEffect']);

function hookName(node: TSESTree.Expression): string | undefined {
  // Bundlers call imports as `(0, react.useEffect)(…)`.
  const callee = compiledCallee(node);
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier') return callee.property.name;
  return undefined;
}

/** Whether `node` is inside the callback of a React effect hook. */
export function isInEffectHookCallback(node: TSESTree.Node): boolean {
  for (let current: TSESTree.Node | undefined = node.parent; current; current = current.parent) {
    if (current.type !== 'ArrowFunctionExpression' && current.type !== 'FunctionExpression') continue;
    const call = current.parent;
    if (call?.type === 'CallExpression' && call.arguments[0] === current && EFFECT_HOOKS.has(hookName(call.callee) ?? '')) return true;
  }
  return false;
}
