// A write through a data-access object the application instance carries (src/knowledge/model-objects.ts):
// `await fastify.modelsInvoices.markSettled(id)`, `await app.models.ledger.addEntry(row)`. The
// receiver is a member of another object than `this` (the instance a plugin decorated) and is named for models,
// a repository or a DAO; the call is awaited; the method is not named for a read. Its rows are the
// service's shared database, so the call is a shared write.
import type { TSESTree } from '@typescript-eslint/utils';
import { MODEL_OBJECT_WORDS, MODEL_READ_VERBS } from '../../src/knowledge/model-objects.js';
import { memberPropertyName } from '../ast/property-names.js';
import { isAwaited, unwrapExpression } from '../ast/unwrapped-expression.js';
import { nameWords } from '../ast/name-words.js';

/** `fastify.modelsInvoices`, `app.models.ledger`: a member of an instance named for data access (itself or one link up). */
function isDecoratedModelObject(receiver: TSESTree.Node): boolean {
  const node = unwrapExpression(receiver);
  // `this.ordersRepo`: a dependency of the class, whose methods the walk follows where they are defined.
  if (node.type !== 'MemberExpression' || node.object.type === 'ThisExpression') return false;
  const names = [memberPropertyName(node)];
  const owner = unwrapExpression(node.object);
  if (owner.type === 'MemberExpression') names.push(memberPropertyName(owner));
  return names.some((name) => name !== undefined && nameWords(name).some((w) => MODEL_OBJECT_WORDS.includes(w)));
}

/** Whether the call writes rows through a data-access object of the application instance. */
export function writesThroughModelObject(call: TSESTree.CallExpression, words: readonly string[]): boolean {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression' || words.length === 0 || MODEL_READ_VERBS.includes(words[0]!)) return false;
  return isAwaited(call) && isDecoratedModelObject(callee.object);
}
