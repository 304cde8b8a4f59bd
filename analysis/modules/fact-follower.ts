// A walk's `followCall` built from a fact: a call is answered by the fact of the project function
// its callee reaches, or undefined when no project function is found.
import type { TSESTree } from '@typescript-eslint/utils';
import type { ProjectFunction } from './project-functions.js';

export function factFollower<T>(
  fact: (fn: ProjectFunction) => T,
  resolve: (callee: TSESTree.Node) => ProjectFunction | undefined,
): (call: TSESTree.CallExpression) => T | undefined {
  return (call) => {
    const target = resolve(call.callee);
    return target ? fact(target) : undefined;
  };
}
