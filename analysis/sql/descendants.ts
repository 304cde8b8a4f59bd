// Every node under a node, in source order (a plain walk over the parser's visitor keys).
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

/** `skip(child)` true: yield the child but not what is under it. */
export function* descendants(
  node: TSESTree.Node,
  visitorKeys: TSESLint.SourceCode.VisitorKeys,
  skip?: (child: TSESTree.Node) => boolean,
): Generator<TSESTree.Node> {
  const keys = visitorKeys[node.type] ?? [];
  for (const key of keys) {
    const child = (node as unknown as Record<string, unknown>)[key];
    const children = Array.isArray(child) ? child : [child];
    for (const c of children) {
      if (c && typeof c === 'object' && typeof (c as TSESTree.Node).type === 'string') {
        yield c as TSESTree.Node;
        if (!skip?.(c as TSESTree.Node)) yield* descendants(c as TSESTree.Node, visitorKeys, skip);
      }
    }
  }
}
