// A number allocated from a read and written into a new or changed row, in the shapes
// next-from-highest.ts does not follow on its own:
//
//   const n = await prisma.voucher.count({ where: { day } });            // a count of the rows …
//   await prisma.voucher.create({ data: { code: `V-${String(n + 1).padStart(4, '0')}` } }); // … plus one, as text
//
//   const newest = await this.shelves.findNewestShelf(roomId);           // a helper named for the last row
//   const slot = newest ? newest.slot + 1 : 1;                           // its own field plus one …
//   shelf.slot = slot;                                                   // … set on an entity
//   await this.shelves.save(shelf);                                      // … that is saved
//
//   this.round = { ...base, round: latest ? latest.round + 1 : 1 };     // an object kept on `this`
//   await rounds.save(owner, this.round);                                 // … handed to a write
//
// Two requests or replicas read the same count or the same last row and write the same number: a
// duplicate, or a unique violation that fails one of them (a unique index, not visible here, turns
// the race into an error; still reported). Not reported: a number the database allocates (a
// sequence, an identity, a counter row changed atomically), a count only shown or logged, a count
// of another model than the one written, the allocation under a row lock, a transaction lock,
// SERIALIZABLE isolation or a named lock, a write that retries on the unique violation.
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { TSESTree } from '@typescript-eslint/utils';
import { ALLOCATING_WRITES, HIGHEST_HELPER_NAME } from '../../src/knowledge/highest-reads.js';
import {
  COUNT_METHODS,
  INSERTING_WRITES,
  SQL_COUNT,
  SQL_FROM_TABLE,
  SQL_INSERT_TABLE,
  TEXT_METHODS,
  TEXT_WRAPPERS,
} from '../../src/knowledge/counted-reads.js';
import { calleeName } from '../../analysis/ast/callee-name.js';
import { chosenValue } from '../../analysis/ast/chosen-value.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { enclosingFunction } from '../../analysis/sql/enclosing-function.js';
import { sqlOfCall } from '../../analysis/sql/sql-text.js';
import { inSerialisedSection } from './serialised-sections.js';
import {
  allocationSerialised,
  highestColumns,
  isHighest,
  libraryOf,
  sentBy,
  sentIncrement,
  sentThroughName,
  type NextFromHighest,
  type Origin,
  type Sent,
} from './next-from-highest.js';

type Node = TSESTree.Node;

/** A number allocated from a read, as next-from-highest.ts' findings; `counted` when the read is a count of rows. */
export type AllocatedNumber = NextFromHighest & { counted?: true };

const MAX_HOPS = 6;

/** Whether `node` is text: a string literal or a template literal. */
const isText = (node: Node): boolean => (node.type === 'Literal' && typeof node.value === 'string') || node.type === 'TemplateLiteral';

/** The outermost expression that carries `value` unchanged as text: `String(v)`, `v.toString()`, `.padStart(4, '0')`, `` `X-${v}` ``, `'X-' + v`. */
function carriedAsText(value: Node): Node {
  let at = chosenValue(value);
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const parent = at.parent;
    if (!parent) break;
    if (
      parent.type === 'CallExpression' &&
      parent.arguments[0] === at &&
      parent.callee.type === 'Identifier' &&
      TEXT_WRAPPERS.has(parent.callee.name)
    )
      at = parent;
    else if (
      parent.type === 'MemberExpression' &&
      parent.object === at &&
      TEXT_METHODS.has(memberPropertyName(parent) ?? '') &&
      parent.parent.type === 'CallExpression' &&
      parent.parent.callee === parent
    )
      at = parent.parent;
    else if (parent.type === 'TemplateLiteral') at = parent;
    else if (parent.type === 'BinaryExpression' && parent.operator === '+' && isText(parent.left === at ? parent.right : parent.left))
      at = parent;
    else break;
    at = chosenValue(at);
  }
  return at;
}

/** `this.name` (or `other.name`) read as an argument of a write, in the function `scope`, after `after`. */
function memberSentIn(
  scope: Node,
  target: TSESTree.MemberExpression,
  after: number,
  sourceCode: Readonly<SourceCode>,
): TSESTree.CallExpression | undefined {
  const text = sourceCode.getText(target);
  let found: TSESTree.CallExpression | undefined;
  const visit = (node: Node): void => {
    if (found || node.range[1] < after) return;
    if (node.type === 'CallExpression' && node.range[0] > after && ALLOCATING_WRITES.has(calleeName(node) ?? ''))
      if (node.arguments.some((a) => a.type === 'MemberExpression' && sourceCode.getText(a) === text)) found = node;
    for (const key of sourceCode.visitorKeys[node.type] ?? []) {
      const child = (node as unknown as Record<string, unknown>)[key];
      for (const c of Array.isArray(child) ? child : [child]) if (c && typeof (c as Node).type === 'string') visit(c as Node);
    }
  };
  visit(scope);
  return found;
}

/** The write an object literal holding `start` under `field` reaches: kept in a `const`, or set on `this.name`, then handed to a write. */
function sentInKeptObject(start: Node, sourceCode: Readonly<SourceCode>): Sent | undefined {
  let object: Node = start;
  let field: string | undefined;
  while (object.parent?.type === 'Property' && object.parent.value === object && object.parent.parent.type === 'ObjectExpression') {
    field ??= propertyKeyName(object.parent);
    object = object.parent.parent;
  }
  const parent = object.parent;
  if (field === undefined || object === start || !parent) return undefined;
  if (parent.type === 'VariableDeclarator' && parent.init === object && parent.id.type === 'Identifier') {
    const sent = sentThroughName(parent.id, sourceCode, field);
    if (sent) return sent;
    // `create({ data: row })`: the object handed inside a write's own argument.
    for (const reference of scopeVariable(sourceCode, parent.id)?.references ?? []) {
      const inWrite = reference.isRead() ? sentBy(reference.identifier as Node, sourceCode) : undefined;
      if (inWrite) return { write: inWrite.write, field };
    }
    return undefined;
  }
  if (parent.type === 'AssignmentExpression' && parent.right === object && parent.left.type === 'MemberExpression') {
    const scope = enclosingFunction(parent);
    const write = scope && memberSentIn(scope, parent.left, parent.range[1], sourceCode);
    return write ? { write, field } : undefined;
  }
  return undefined;
}

/** The write a name reaches as the value of an entity's field (`shelf.slot = slot`, then `save(shelf)`) or of a kept object's. */
function sentThroughField(id: TSESTree.Identifier, sourceCode: Readonly<SourceCode>): Sent | undefined {
  for (const reference of scopeVariable(sourceCode, id)?.references ?? []) {
    const identifier = reference.identifier as Node;
    const parent = identifier.parent;
    if (!reference.isRead() || !parent) continue;
    if (
      parent.type === 'AssignmentExpression' &&
      parent.operator === '=' &&
      parent.right === identifier &&
      parent.left.type === 'MemberExpression'
    ) {
      const object = unwrapExpression(parent.left.object);
      const field = memberPropertyName(parent.left);
      const sent = object.type === 'Identifier' && field ? sentThroughName(object, sourceCode, field) : undefined;
      if (sent) return sent;
    }
    const kept = sentInKeptObject(identifier, sourceCode);
    if (kept) return kept;
  }
  return undefined;
}

/** Where `value` is written: as `sentBy` finds it, after it is made text, or through an entity's field or a kept object. */
function sentOnward(value: Node, sourceCode: Readonly<SourceCode>): Sent | undefined {
  const at = carriedAsText(value);
  const sent = sentBy(at, sourceCode);
  if (sent) return sent;
  const parent = at.parent;
  if (parent?.type === 'VariableDeclarator' && parent.init === at && parent.id.type === 'Identifier')
    return sentThroughField(parent.id, sourceCode);
  return sentInKeptObject(at, sourceCode);
}

/** The model or repository a call is made on: `order` of `tx.order.count`, `orders` of `this.orders.save`, the text of a call receiver. */
function targetOf(call: TSESTree.CallExpression, sourceCode: Readonly<SourceCode>): string | undefined {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression') return undefined;
  const receiver = unwrapExpression(callee.object);
  if (receiver.type === 'Identifier') return receiver.name;
  if (receiver.type === 'MemberExpression') return memberPropertyName(receiver);
  return sourceCode.getText(receiver);
}

/** Whether `origin` is a count of the rows of the model or table `write` inserts into. */
function countOfWritten(origin: Origin, write: TSESTree.CallExpression, sourceCode: Readonly<SourceCode>): boolean {
  const sql = sqlOfCall(origin.call, sourceCode)?.sql.text;
  if (sql !== undefined) {
    const inserted = sqlOfCall(write, sourceCode)?.sql.text;
    const counted = SQL_COUNT.test(sql) ? SQL_FROM_TABLE.exec(sql)?.[1] : undefined;
    return counted !== undefined && inserted !== undefined && SQL_INSERT_TABLE.exec(inserted)?.[1]?.toLowerCase() === counted.toLowerCase();
  }
  if (origin.fields.length > 0 || !COUNT_METHODS.has(calleeName(origin.call) ?? '') || !INSERTING_WRITES.has(calleeName(write) ?? ''))
    return false;
  const counted = targetOf(origin.call, sourceCode);
  return counted !== undefined && counted === targetOf(write, sourceCode);
}

/** A helper named for the last (largest) row, whose own `field` plus one is written under that name: `last.issueNo + 1` as `issueNo`. */
const lastRowsField = (origin: Origin, field: string): boolean =>
  origin.fields[origin.fields.length - 1] === field && HIGHEST_HELPER_NAME.test(calleeName(origin.call) ?? '');

/** The number `value` allocates from a read (a count, or the last row's field) in a write nothing serialises; `undefined` otherwise. */
export function allocatedNumberOf(value: TSESTree.BinaryExpression, sourceCode: Readonly<SourceCode>): AllocatedNumber | undefined {
  const { sent, origins, field } = sentIncrement(value, sourceCode, sentOnward) ?? {};
  if (!sent || !origins || field === undefined) return undefined;
  const highest = origins.find((o) => isHighest(o, field, sourceCode) || lastRowsField(o, field));
  const origin = highest ?? origins.find((o) => countOfWritten(o, sent.write, sourceCode));
  if (!origin || highestColumns(origin.call, sourceCode).locked) return undefined;
  // A named lock or a SERIALIZABLE transaction runner around the read and the write, besides what
  // serialises a largest-plus-one (a lock in the function, a retry on the unique violation).
  if (allocationSerialised(value, sent.write, sourceCode) || inSerialisedSection(origin.call, sent.write, sourceCode as never))
    return undefined;
  const next: AllocatedNumber = { value, write: sent.write, field, read: origin.call, library: libraryOf(origin.call, sourceCode) };
  return highest ? next : { ...next, counted: true };
}
