// Parse Server's SDK objects as reads (parse-objects.ts in the knowledge): `await query.first()`
// on a query declared in a block around it as `new Parse.Query('Wallet')` is the read of one object
// of that class. Its fields are read with `object.get('field')` (taint.ts) and changed with
// `object.set(…)` (entity-changes.ts) before its `save()`.
import type { TSESTree } from '@typescript-eslint/utils';
import { PARSE_OBJECT_READS, PARSE_QUERY_CLASS } from '../../src/knowledge/parse-objects.js';
import { declaredValue } from '../../analysis/ast/declared-object.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import type { ReadSite } from './model.js';

const READS: ReadonlySet<string> = new Set(PARSE_OBJECT_READS);

/** `new Parse.Query('Wallet')`: the class name queried (`null` when not a string), or undefined when not a Parse query. */
function queriedClass(node: TSESTree.Node | null): string | null | undefined {
  const expr = node && unwrapExpression(node);
  if (expr?.type !== 'NewExpression') return undefined;
  const callee = unwrapExpression(expr.callee);
  const isQuery =
    callee.type === 'MemberExpression' &&
    memberPropertyName(callee) === PARSE_QUERY_CLASS.name &&
    callee.object.type === 'Identifier' &&
    callee.object.name === PARSE_QUERY_CLASS.namespace;
  if (!isQuery) return undefined;
  const first = expr.arguments[0];
  return first?.type === 'Literal' && typeof first.value === 'string' ? first.value : null;
}

/** The read `call` is when it runs a Parse query for one object (`await query.first()`), or null. */
export function parseObjectReadOf(call: TSESTree.CallExpression): ReadSite | null {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression' || !READS.has(memberPropertyName(callee) ?? '')) return null;
  const query = unwrapExpression(callee.object);
  if (query.type !== 'Identifier') return null;
  const model = queriedClass(declaredValue(query));
  if (model === undefined) return null;
  return { candidates: ['parse'], node: call, model, locked: false, mutations: [], boundChecks: [] };
}
