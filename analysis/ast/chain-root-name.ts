// The name a chain of members and calls starts from: `tx` of `tx.$executeRaw`, `db` of
// `db.query(…).then(…)`, `fs` of `fs.promises.rm`.
import type { TSESTree } from '@typescript-eslint/utils';

export function chainRootName(node: TSESTree.Node): string | undefined {
  let current = node;
  while (current.type === 'MemberExpression' || current.type === 'CallExpression')
    current = current.type === 'MemberExpression' ? current.object : current.callee;
  return current.type === 'Identifier' ? current.name : undefined;
}
