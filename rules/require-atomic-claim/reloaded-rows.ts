// A row read again by its key through a loader (`const show = await podcasts.loadShow(next.id)`) is the
// row read: an update of `show.id` marks the row the read picked. Only the row's own key counts
// (`next.id`, not `next.curatorId`: another table's row), handed to a loader-named call.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { LOADER_CALL_NAME, PRIMARY_KEY_COLUMN } from '../../src/knowledge/orm-reads-writes.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';

type VisitorKeys = TSESLint.SourceCode['visitorKeys'];

/** `next.id` with `next` one of `names`. */
const isKeyOf = (node: TSESTree.Node, names: readonly string[]): boolean =>
  node.type === 'MemberExpression' &&
  node.object.type === 'Identifier' &&
  names.includes(node.object.name) &&
  PRIMARY_KEY_COLUMN.test(memberPropertyName(node) ?? '');

/** Names declared after `from` as a loader's answer for the key of a row of `names` (`const show = await podcasts.load(next.id)`). */
export function reloadedRowNames(scope: TSESTree.Node, from: number, names: readonly string[], keys: VisitorKeys): string[] {
  if (names.length === 0) return [];
  const reloaded: string[] = [];
  for (const node of descendants(scope, keys)) {
    if (node.type !== 'VariableDeclarator' || node.range[0] < from || node.id.type !== 'Identifier' || !node.init) continue;
    const init = node.init.type === 'AwaitExpression' ? node.init.argument : node.init;
    if (init.type !== 'CallExpression') continue;
    const callee = init.callee;
    const name = callee.type === 'MemberExpression' ? memberPropertyName(callee) : callee.type === 'Identifier' ? callee.name : undefined;
    if (name !== undefined && LOADER_CALL_NAME.test(name) && init.arguments.some((a) => isKeyOf(a, names))) reloaded.push(node.id.name);
  }
  return reloaded;
}
