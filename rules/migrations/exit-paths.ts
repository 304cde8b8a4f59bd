// Whether a failure handler ends the run with a non-zero exit: it rethrows, calls
// `process.exit(<not 0>)` / `process.abort()`, sets `process.exitCode` to something other than 0,
// or returns a rejected promise.
import type { TSESTree } from '@typescript-eslint/utils';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { isProcessGlobal } from '../../analysis/ast/process-env.js';

const isZero = (node: TSESTree.Node | undefined): boolean => {
  const value = node && unwrapExpression(node);
  return value?.type === 'Literal' && (value.value === 0 || value.value === '0');
};

export function exitsNonZero(root: TSESTree.Node): boolean {
  let found = false;
  const visit = (node: TSESTree.Node): void => {
    if (found) return;
    if (node.type === 'ThrowStatement') found = true;
    else if (node.type === 'CallExpression') {
      const callee = unwrapExpression(node.callee);
      const name = memberPropertyName(callee);
      if (callee.type === 'MemberExpression' && isProcessGlobal(callee.object)) {
        if (name === 'abort' || (name === 'exit' && node.arguments.length > 0 && !isZero(node.arguments[0]))) found = true;
      }
      if (callee.type === 'MemberExpression' && name === 'reject' && unwrapExpression(callee.object).type === 'Identifier') {
        const object = unwrapExpression(callee.object) as TSESTree.Identifier;
        if (object.name === 'Promise') found = true;
      }
    } else if (node.type === 'AssignmentExpression') {
      const left = unwrapExpression(node.left);
      if (
        left.type === 'MemberExpression' &&
        memberPropertyName(left) === 'exitCode' &&
        isProcessGlobal(left.object) &&
        !isZero(node.right)
      )
        found = true;
    }
    if (found) return;
    for (const key of Object.keys(node) as Array<keyof typeof node>) {
      if (key === 'parent') continue;
      const child = node[key] as unknown;
      if (Array.isArray(child)) {
        for (const c of child) if (c && typeof (c as TSESTree.Node).type === 'string') visit(c as TSESTree.Node);
      } else if (child && typeof (child as TSESTree.Node).type === 'string') visit(child as TSESTree.Node);
    }
  };
  visit(root);
  return found;
}
