// Every node under a node, in source order (a plain walk over the parser's visitor keys). One
// explicit stack rather than nested generators: a `yield*` per level costs a generator object and
// a hop per level for every node yielded.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

const isNode = (value: unknown): value is TSESTree.Node =>
  value !== null && typeof value === 'object' && typeof (value as TSESTree.Node).type === 'string';

/** `skip(child)` true: yield the child but not what is under it. */
export function* descendants(
  node: TSESTree.Node,
  visitorKeys: TSESLint.SourceCode.VisitorKeys,
  skip?: (child: TSESTree.Node) => boolean,
): Generator<TSESTree.Node> {
  const stack: TSESTree.Node[] = [];
  // Children pushed last first, so they come off the stack in source order, before the siblings of their parent.
  const pushChildren = (parent: TSESTree.Node): void => {
    const keys = visitorKeys[parent.type] ?? [];
    for (let k = keys.length - 1; k >= 0; k--) {
      const child = (parent as unknown as Record<string, unknown>)[keys[k]!];
      if (Array.isArray(child)) {
        for (let i = child.length - 1; i >= 0; i--) if (isNode(child[i])) stack.push(child[i] as TSESTree.Node);
      } else if (isNode(child)) stack.push(child);
    }
  };
  pushChildren(node);
  while (stack.length > 0) {
    const child = stack.pop()!;
    yield child;
    if (!skip?.(child)) pushChildren(child);
  }
}
