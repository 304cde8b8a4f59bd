// A write that releases a claim the file takes on the same rows: it clears a field (`lockedAt:
// null`) that a conditional update of the file sets only where it is still clear (`updateMany({
// where: { id, lockedAt: null }, data: { lockedAt: now } })`). Only the holder of the claim releases
// it — another worker's claim fails while the field is set — so what the releasing write sends from
// its read (`attempts: row.attempts + 1`) has no second writer. Another model's claim, or a field
// the write does not clear, is no such hold.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { filterAndValues, TRANSITION_METHODS, walk } from './claimed-rows.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

const isNull = (node: TSESTree.Node | undefined): boolean => node?.type === 'Literal' && node.value === null;

/** The receiver of an update call, as written (`prisma.job` of `prisma.job.updateMany(…)`), when it is one. */
function updateReceiver(call: TSESTree.CallExpression, sourceCode: SourceCode): string | undefined {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression' || !TRANSITION_METHODS.has(memberPropertyName(callee) ?? '')) return undefined;
  return sourceCode.getText(callee.object);
}

/** The fields an update's values set to `null`, or to a value (`set`: false / true). */
function fieldsSet(values: TSESTree.ObjectExpression | undefined, cleared: boolean): string[] {
  return (values?.properties ?? []).flatMap((p) =>
    p.type === 'Property' && isNull(unwrapExpression(p.value)) === cleared ? [propertyKeyName(p) ?? ''] : [],
  );
}

/** Whether `call` claims rows of `receiver` where one of `fields` is still clear: filtered on `field: null`, setting it. */
function claimsWhereClear(call: TSESTree.CallExpression, receiver: string, fields: readonly string[], sourceCode: SourceCode): boolean {
  if (updateReceiver(call, sourceCode) !== receiver) return false;
  const [filter, values] = filterAndValues(call);
  const set = fieldsSet(values, false);
  return (filter?.properties ?? []).some(
    (p) =>
      p.type === 'Property' &&
      isNull(unwrapExpression(p.value)) &&
      fields.includes(propertyKeyName(p) ?? '') &&
      set.includes(propertyKeyName(p) ?? ''),
  );
}

/** Whether `write` releases a claim the file takes on the same rows (see the file's head). */
export function releasesFileClaim(write: TSESTree.Node, sourceCode: SourceCode): boolean {
  if (write.type !== 'CallExpression') return false;
  const receiver = updateReceiver(write, sourceCode);
  const cleared = receiver === undefined ? [] : fieldsSet(filterAndValues(write)[1], true);
  if (receiver === undefined || cleared.length === 0) return false;
  let found = false;
  walk(sourceCode.ast, sourceCode, (node) => {
    if (!found && node !== write && node.type === 'CallExpression' && claimsWhereClear(node, receiver, cleared, sourceCode)) found = true;
  });
  return found;
}
