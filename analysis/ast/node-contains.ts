// Whether one node's source range holds another's (the node itself included).
import type { TSESTree } from '@typescript-eslint/utils';

export const nodeContains = (outer: TSESTree.Node, inner: TSESTree.Node): boolean =>
  outer.range[0] <= inner.range[0] && inner.range[1] <= outer.range[1];
