// The deepest node at a text offset, found by walking down from the program: what a rule that
// finds its candidates by text (a method name's offsets) and the codemod's marker placement both
// need, without ESLint's whole-tree traversal per question.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';

type Child = TSESTree.Node | null | undefined;

const contains = (node: Child, offset: number): node is TSESTree.Node =>
  !!node && typeof node.type === 'string' && node.range[0] <= offset && offset < node.range[1];

/** The child in a list (in source order) whose range holds `offset`, by binary search. */
function childInList(list: readonly Child[], offset: number): TSESTree.Node | undefined {
  let low = 0;
  let high = list.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const node = list[middle];
    // A hole (`[a, , b]`) or a non-node: search the list one by one.
    if (!node?.range) return list.find((n) => contains(n, offset)) ?? undefined;
    if (offset < node.range[0]) high = middle - 1;
    else if (offset >= node.range[1]) low = middle + 1;
    else return node;
  }
  return undefined;
}

/**
 * The deepest node whose range holds `offset` (ESLint's `getNodeByRangeIndex`), found by walking
 * down from the program instead of traversing the whole tree once per finding, which made a big
 * file with thousands of findings quadratic.
 */
export function nodeAt(sourceCode: SourceCode, offset: number): TSESTree.Node | null {
  const program = sourceCode.ast as TSESTree.Node;
  return contains(program, offset) ? deepestNodeUnder(sourceCode, program, offset) : null;
}

/** The deepest node under `start` (itself included) whose range holds `offset`, which `start`'s range holds. */
export function deepestNodeUnder(sourceCode: SourceCode, start: TSESTree.Node, offset: number): TSESTree.Node {
  const keys = sourceCode.visitorKeys as Record<string, readonly string[] | undefined>;
  let node: TSESTree.Node = start;
  for (;;) {
    let next: TSESTree.Node | undefined;
    for (const key of keys[node.type] ?? []) {
      const value = (node as unknown as Record<string, unknown>)[key];
      next = Array.isArray(value)
        ? childInList(value as Child[], offset)
        : contains(value as Child, offset)
          ? (value as TSESTree.Node)
          : undefined;
      if (next) break;
    }
    if (!next) return node;
    node = next;
  }
}
