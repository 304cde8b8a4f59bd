// Rewrites of writes that send a values document: Prisma `{ increment | decrement }` (a bound makes
// it `updateMany` with a `count` check) and Mongoose `$inc` (a bound in the filter, then `matchedCount`).
import type { TSESTree } from '@typescript-eslint/utils';
import type { ReadThenWriteFacts } from '../../../rules/no-read-then-write.js';
import type { SourceFileInfo, TextEdit } from '../../engine/transform.js';
import { negated, textOf, type Reason } from './source.js';
import { appendProperty, objectArgument, property, rowsCheck, slotAmong, slotReplacement, type Guard, type Simple } from './edit-parts.js';

export function prismaEdits(file: SourceFileInfo, facts: ReadThenWriteFacts, changes: Simple[], guard: Guard): TextEdit[] | Reason {
  const { method, data: dataNode, filter } = facts.writeShape;
  const data = objectArgument(dataNode);
  if (!data || (method !== 'update' && method !== 'updateMany' && method !== 'upsert'))
    return 'the Prisma write is not `update`/`updateMany`/`upsert` with literal data; use `{ increment }` by hand';
  const edits: TextEdit[] = [];
  for (const change of changes) {
    const slot = slotAmong(file, facts, change, data);
    if (typeof slot === 'string') return slot;
    edits.push(...slotReplacement(file, slot, `{ ${change.operator === '+' ? 'increment' : 'decrement'}: ${change.operand} }`));
  }
  if (guard) {
    const where = objectArgument(filter);
    if (method === 'upsert' || !where)
      return 'a checked Prisma write that is not `update` with a literal where; use updateMany with the bound and check count by hand';
    const change = changes[0]!;
    const ceiling = guard.bound.ceiling;
    if (ceiling && change.operand.trim() !== '1')
      return 'an increment other than `+ 1` checked against a limit; put `field <= limit - n` in where by hand';
    // `uses < maxUses` of the same row: a Prisma field reference (`prisma.coupon.fields.maxUses`).
    const model =
      facts.writeShape.nameNode.parent?.type === 'MemberExpression' ? textOf(file, facts.writeShape.nameNode.parent.object) : null;
    const limit = ceiling?.limitField && model ? `${model}.fields.${ceiling.limitField}` : ceiling?.limit;
    if (ceiling && ceiling.limitField && !model)
      return 'the Prisma model of the write is not named; use a field reference in where by hand';
    edits.push(appendProperty(where, ceiling ? `${change.field}: { lt: ${limit} }` : `${change.field}: { gte: ${change.operand} }`));
    if (method === 'update') {
      const name = facts.writeShape.nameNode;
      edits.push({ start: name.range[0], end: name.range[1], text: 'updateMany' });
    }
    const check = rowsCheck(file, guard, '{ count }', 'count === 0');
    if (typeof check === 'string') return check;
    edits.push(...check);
  }
  return edits;
}

export function mongooseEdits(file: SourceFileInfo, facts: ReadThenWriteFacts, changes: Simple[], guard: Guard): TextEdit[] | Reason {
  const { method, data, filter: filterNode } = facts.writeShape;
  if (method === 'save')
    return 'a loaded document saved back; use Model.updateOne({ _id }, { $inc }) by hand (the document may be used after the save)';
  if (!method || !['updateOne', 'updateMany', 'findOneAndUpdate', 'findByIdAndUpdate'].includes(method))
    return 'not a Mongoose update call; use $inc by hand';
  const update = objectArgument(data);
  if (!update) return 'the update is not an object literal; use $inc by hand';
  const set = objectArgument(property(update, '$set')?.value);
  const target = set ?? update;
  if (
    target.properties.length !== changes.length ||
    (set && update.properties.length !== 1) ||
    (!set && update.properties.some((p) => textOf(file, (p as TSESTree.Property).key).startsWith('$')))
  ) {
    return 'the update sets other fields too; move the counter into `$inc` by hand';
  }
  const incs: string[] = [];
  for (const change of changes) {
    const slot = slotAmong(file, facts, change, target);
    if (typeof slot === 'string') return slot;
    incs.push(`${change.field}: ${change.operator === '+' ? change.operand : negated(change.operand)}`);
  }
  const edits: TextEdit[] = [{ start: update.range[0], end: update.range[1], text: `{ $inc: { ${incs.join(', ')} } }` }];
  if (guard) {
    const filter = objectArgument(filterNode);
    if (!filter || (method !== 'updateOne' && method !== 'updateMany'))
      return 'a checked write that is not updateOne with a literal filter; add the bound to the filter by hand';
    const change = changes[0]!;
    edits.push(appendProperty(filter, `${change.field}: { $gte: ${change.operand} }`));
    const check = rowsCheck(file, guard, '{ matchedCount }', 'matchedCount === 0');
    if (typeof check === 'string') return check;
    edits.push(...check);
  }
  return edits;
}
