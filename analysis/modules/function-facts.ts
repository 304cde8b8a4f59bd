// Facts about what a function does ("writes a database", "takes a lock", "returns a JetStream
// context"), each defined by the family that owns the knowledge and computed once per function:
// a function met again while its own answer is being computed (recursion, a cycle between
// modules) answers the fact's `initial`, and calls are followed a bounded number of levels deep.
import type { TSESTree } from '@typescript-eslint/utils';
import { projectFunctionIn, type ProjectFunction } from './project-functions.js';

/** How many calls deep a fact follows (the function itself is depth 0). */
export const MAX_FACT_DEPTH = 3;

export type FollowCall = (callee: TSESTree.Node) => ProjectFunction | undefined;

/** Depth of the fact computation under way (one shared counter: facts may ask other facts). */
let depth = 0;

/**
 * Defines a fact. `compute` gets the function and `follow`, which resolves a callee inside that
 * function's module to the project function it calls, or undefined past MAX_FACT_DEPTH.
 * Answers are cached per function node: a changed file is parsed again into new nodes, so its
 * old answers are never read again (and are collected with them).
 */
export function defineFunctionFact<T>(
  name: string,
  initial: T,
  compute: (fn: ProjectFunction, follow: FollowCall) => T,
): (fn: ProjectFunction) => T {
  const answers = new WeakMap<TSESTree.Node, T>();
  const pending = new WeakSet<TSESTree.Node>();
  const fact = (fn: ProjectFunction): T => {
    const known = answers.get(fn.fn);
    if (known !== undefined) return known;
    if (pending.has(fn.fn)) return initial;
    pending.add(fn.fn);
    const levelAtEntry = depth;
    depth++;
    let answer = initial;
    try {
      const follow: FollowCall = (callee) => (depth > MAX_FACT_DEPTH ? undefined : projectFunctionIn(fn, callee));
      answer = compute(fn, follow);
    } catch {
      answer = initial;
    } finally {
      depth = levelAtEntry;
      pending.delete(fn.fn);
    }
    // An answer reached with the depth cut short is still the best answer for this function at
    // the top; one computed deeper down may have missed a level, so only top-level answers stay.
    if (levelAtEntry === 0) answers.set(fn.fn, answer);
    return answer;
  };
  Object.defineProperty(fact, 'name', { value: name });
  return fact;
}
