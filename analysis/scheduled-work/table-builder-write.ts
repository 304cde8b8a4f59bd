// A write through a query builder started on a table (src/knowledge/work-effects.ts,
// TABLE_BUILDER_HANDLE_WORDS): `await knex('thumbnail_cache').where('id', id).del()`,
// `db('sessions').where('expires_at', '<', now).delete()`, `this.knex('jobs').update({ … })`. The
// receiver of the write method is a chain of builder calls, which no receiver name describes: what
// says it is the database is where the chain starts, the handle called with the table's name.
import type { TSESTree } from '@typescript-eslint/utils';
import { TABLE_BUILDER_HANDLE_WORDS, TABLE_BUILDER_WRITE_METHODS } from '../../src/knowledge/work-effects.js';
import { memberPropertyName } from '../ast/property-names.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { nameWords } from '../ast/name-words.js';
import { ownOrLocalName } from '../ast/own-or-local-name.js';

/** `knex('t')`, `this.db('t')`: the handle called with a table's name written out. */
function startsOnTable(call: TSESTree.CallExpression): boolean {
  const table = call.arguments[0];
  const named =
    (table?.type === 'Literal' && typeof table.value === 'string') || (table?.type === 'TemplateLiteral' && table.expressions.length === 0);
  if (!named) return false;
  const handle = ownOrLocalName(unwrapExpression(call.callee));
  const words = handle === undefined ? [] : nameWords(handle);
  return words.length > 0 && TABLE_BUILDER_HANDLE_WORDS.includes(words.at(-1)!);
}

/** Whether `call` is a write method at the end of a builder chain started on a table. */
export function writesThroughTableBuilder(call: TSESTree.CallExpression): boolean {
  const callee = call.callee;
  if (callee.type !== 'MemberExpression' || !TABLE_BUILDER_WRITE_METHODS.includes(memberPropertyName(callee) ?? '')) return false;
  let node: TSESTree.Node = unwrapExpression(callee.object);
  while (node.type === 'CallExpression') {
    if (startsOnTable(node)) return true;
    const inner = unwrapExpression(node.callee);
    if (inner.type !== 'MemberExpression') return false;
    node = unwrapExpression(inner.object);
  }
  return false;
}
