// A Mongoose query kept in a `const` and run later: `const query = Members.findOne({ id })` …
// `const member = await query.exec()`. The `exec()` reads what the kept query names.
import type { TSESTree } from '@typescript-eslint/utils';
import { declaredValue } from '../../analysis/ast/declared-object.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import type { ReadSite } from './model.js';

/** The read of the query `call` runs (`query.exec()` of a `const query = Model.findOne(…)`), or null. */
export function heldQueryReadOf(
  call: TSESTree.CallExpression,
  readOf: (query: TSESTree.CallExpression) => ReadSite | null,
): ReadSite | null {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression' || callee.object.type !== 'Identifier' || memberPropertyName(callee) !== 'exec') return null;
  const query = declaredValue(callee.object);
  return query?.type === 'CallExpression' ? readOf(query) : null;
}
