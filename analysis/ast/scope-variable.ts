// The variable a name refers to, found through the scope analysis. The lookup throws for a node
// the scope manager never saw (a synthetic node, a scope built for another file), so it is asked
// once here and a failure reads as "not found".
//
// The lookup is eslint-utils' `findVariable` (the innermost scope at the name, then outwards by
// name), with one difference in cost only: a scope with many child scopes (a bundle's module scope
// holds thousands of functions) is searched by halves for the child holding the name, when its
// children's blocks are in source order and do not overlap — then the one child a scan would find
// first is the only one that holds the place. Otherwise its children are scanned, as eslint-utils does.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';

export type ScopeVariable = NonNullable<ReturnType<SourceCode['getDeclaredVariables']>[number]>;

interface ScopeLike {
  childScopes: readonly ScopeLike[];
  block: { range: readonly [number, number] };
  set: ReadonlyMap<string, ScopeVariable>;
  upper: ScopeLike | null;
}

/** Below this many children a scan is as cheap as the search. */
const MANY_CHILDREN = 16;
/** Per scope with many children: whether their blocks are in source order and apart. */
const childrenInOrder = new WeakMap<ScopeLike, boolean>();

function inOrder(children: readonly ScopeLike[]): boolean {
  for (let i = 0; i < children.length; i++) {
    const range = children[i]!.block.range;
    if (!(range[0] <= range[1])) return false;
    if (i + 1 < children.length && !(range[1] <= children[i + 1]!.block.range[0])) return false;
  }
  return true;
}

/** The first child scope of `scope` whose block holds `location`, or undefined. */
function childAt(scope: ScopeLike, location: number): ScopeLike | undefined {
  const children = scope.childScopes;
  let sorted = false;
  if (children.length >= MANY_CHILDREN) {
    let known = childrenInOrder.get(scope);
    if (known === undefined) childrenInOrder.set(scope, (known = inOrder(children)));
    sorted = known;
  }
  if (!sorted) {
    for (const child of children) {
      const range = child.block.range;
      if (range[0] <= location && location < range[1]) return child;
    }
    return undefined;
  }
  // The last child starting at or before `location`: the only one that can hold it.
  let low = 0;
  let high = children.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (children[middle]!.block.range[0] <= location) low = middle + 1;
    else high = middle;
  }
  const child = children[low - 1];
  return child && location < child.block.range[1] ? child : undefined;
}

/** The variable `identifier` refers to at its place, or undefined when it is a global nobody declared or cannot be looked up. */
export function scopeVariable(sourceCode: Readonly<SourceCode>, identifier: TSESTree.Identifier): ScopeVariable | undefined {
  try {
    const location = identifier.range[0];
    let scope: ScopeLike | null = sourceCode.getScope(identifier) as unknown as ScopeLike;
    for (let child = childAt(scope, location); child; child = childAt(scope, location)) scope = child;
    for (; scope; scope = scope.upper) {
      const variable = scope.set.get(identifier.name);
      if (variable != null) return variable;
    }
    return undefined;
  } catch {
    return undefined;
  }
}
