// Writes one call away, through a project helper named for the write: `updateItemField(id,
// 'stock', item.stock - 1)`, `db.updateComment(id, { ups })`, `this.saveCounter({ id, views })`,
// a private one (`this._updateJobState(id, 'done', { tries })`) or one that chains the write after
// another step (`this.entries.recordEntryAndUpdateTokens({ purseId, purseAmount })`).
// The helper sends what it is given back to the row its first argument names, whatever library it
// uses inside (a SQL `UPDATE`, a document store, a key-value store): a value computed from a read
// and handed to it is written back as surely as by the library's own update. The values are read
// from the arguments' shape — a key, then a field's name and its value, or a key, then an object of
// values, or one object holding the key and the values; or the field is in the helper's name — a key,
// then the value (`updateBalance(userId, next)`), or the row changed in JavaScript handed whole
// (`User.updateImpactPoints(user)`): then only a value of that field counts. Any other shape is no write here.
import { DATA_ACCESS_OBJECT_NAME } from '../../src/knowledge/database-access.js';
import type { TSESTree } from '@typescript-eslint/utils';
import { CHAINED_WRITE_HELPER_VERB, IDENTITY_FIELD, PRIMARY_KEY_COLUMN, WRITE_HELPER_VERBS } from '../../src/knowledge/orm-reads-writes.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import type { WriteSite, WriteValue } from './model.js';
import { valuesOf } from './write-site.js';
import { namesImportedModel } from './model-imports.js';

/**
 * Names of helpers that write a row they are handed (`updateComment`, `updateItemField`,
 * `saveCounter`, `editMember`): `update`, `save` or `edit` and the thing written. The library's own
 * methods (`updateOne`, `updateMany`, `saveAll`) are judged as such elsewhere.
 */
const HELPER_VERB = `(?:_?(?:${WRITE_HELPER_VERBS.join('|')})|[a-z][\\w$]*${CHAINED_WRITE_HELPER_VERB})`;
const WRITE_HELPER_NAME = new RegExp(`^${HELPER_VERB}[A-Z][\\w$]*$`);
const LIBRARY_METHODS: ReadonlySet<string> = new Set(['updateOne', 'updateMany', 'updateTable', 'saveAll', 'saveMany', 'updateAll']);
/** Helpers whose name says the database does the change (`updateCountAtomically`, `saveIncrement`). */
const ATOMIC_WORDS = /Increment|Decrement|Atomic|Inc$|Incr/;

const isWriteHelperName = (name: string): boolean => WRITE_HELPER_NAME.test(name) && !LIBRARY_METHODS.has(name) && !ATOMIC_WORDS.test(name);

/** The helper's name, when `callee` is a function of the project or a data-access object's method named for a write. */
function helperName(callee: TSESTree.Node): TSESTree.Identifier | undefined {
  const node = unwrapExpression(callee);
  let name: TSESTree.Identifier | undefined;
  if (node.type === 'Identifier') name = node;
  else if (node.type === 'MemberExpression' && !node.computed && node.property.type === 'Identifier') {
    // The name first: most calls are named for no write, and the receiver's test asks the scope analysis.
    if (!isWriteHelperName(node.property.name)) return undefined;
    const receiver = unwrapExpression(node.object);
    const receiverName =
      receiver.type === 'ThisExpression'
        ? 'this'
        : receiver.type === 'Identifier'
          ? receiver.name
          : receiver.type === 'MemberExpression'
            ? memberPropertyName(receiver)
            : undefined;
    const dataAccess =
      receiverName === 'this' ||
      (receiverName !== undefined && DATA_ACCESS_OBJECT_NAME.test(receiverName)) ||
      (receiver.type === 'Identifier' && namesImportedModel(receiver));
    if (!dataAccess) return undefined;
    name = node.property;
  }
  return name && isWriteHelperName(name.name) ? name : undefined;
}

const argument = (node: TSESTree.CallExpressionArgument | undefined): TSESTree.Node | undefined =>
  node && node.type !== 'SpreadElement' ? unwrapExpression(node) : undefined;

/** The field a helper's name says it writes (`updateBalance` → `balance`, `saveImpactPoints` → `impactPoints`). */
function namedField(name: string): string {
  const rest = name.replace(new RegExp(`^${HELPER_VERB}`), '');
  // `FAAB` → `faab`, `URLCount` → `urlCount`: a leading acronym lowered whole.
  return rest.replace(/^[A-Z]+(?![a-z])|^[A-Z]/, (head) => head.toLowerCase());
}

/** A value handed on whole: a name, a field, a computation (not a literal, an object, a function). */
const isValue = (node: TSESTree.Node | undefined): node is TSESTree.Node =>
  node?.type === 'Identifier' || node?.type === 'MemberExpression' || node?.type === 'BinaryExpression';

const isPrimaryKey = (p: TSESTree.Node): p is TSESTree.Property =>
  p.type === 'Property' && PRIMARY_KEY_COLUMN.test(propertyKeyName(p) ?? '');
/** `identifier: userId`, `where: user.id`: a property given a row's identity by its name. */
const isIdentityValued = (p: TSESTree.Node): p is TSESTree.Property => {
  if (p.type !== 'Property') return false;
  const value = unwrapExpression(p.value);
  const name = value.type === 'Identifier' ? value.name : value.type === 'MemberExpression' ? memberPropertyName(value) : undefined;
  return name !== undefined && IDENTITY_FIELD.test(name);
};

/** The values `call` hands its helper, by field, and the filter naming the row; `undefined` for another shape. */
function sentValues(
  call: TSESTree.CallExpression,
  name: string,
): { values: WriteValue[]; filter: TSESTree.Node; data: TSESTree.Node } | undefined {
  const [first, second, third] = call.arguments.map(argument);
  if (!first) return undefined;
  // The field in the helper's name: (key, value, …) — `updateBalance(userId, balance - amount, tx)` —
  // or the row changed in JavaScript, handed whole — `updateImpactPoints(user)`.
  const field = namedField(name);
  if (call.arguments.length >= 2 && first.type !== 'ObjectExpression' && isValue(second))
    return { values: [{ field, value: second, named: true }], filter: first, data: second };
  if (call.arguments.length === 1 && first.type === 'Identifier')
    return { values: [{ field, value: first, named: true }], filter: first, data: first };
  // (key, 'field', value), and (key, 'state', { field: value, … }): the object's fields are written beside the word
  if (call.arguments.length === 3 && second?.type === 'Literal' && typeof second.value === 'string' && third)
    return {
      values: third.type === 'ObjectExpression' ? valuesOf(third) : [{ field: second.value, value: third }],
      filter: first,
      data: third,
    };
  // (key, { field: value, … }), and a transaction or handle after them (`(user, { balance }, tx)`)
  const handleLast = call.arguments.length === 3 && (third?.type === 'Identifier' || third?.type === 'MemberExpression');
  if ((call.arguments.length === 2 || handleLast) && second?.type === 'ObjectExpression' && first.type !== 'ObjectExpression')
    return { values: valuesOf(second), filter: first, data: second };
  // ({ id, field: value, … }), ({ identifier: userId, field: value }): the key by its name, or by an identity's name given to it
  if (call.arguments.length === 1 && first.type === 'ObjectExpression') {
    const key = first.properties.find(isPrimaryKey) ?? first.properties.find(isIdentityValued);
    if (!key || first.properties.length < 2) return undefined;
    const keyField = propertyKeyName(key);
    return {
      values: valuesOf(first).filter((v) => v.field === null || (!PRIMARY_KEY_COLUMN.test(v.field) && v.field !== keyField)),
      filter: key,
      data: first,
    };
  }
  return undefined;
}

/** The write a call of a helper named for the write is, or `null`. */
export function helperWriteSiteOf(call: TSESTree.CallExpression): WriteSite | null {
  const name = helperName(call.callee);
  const sent = name && sentValues(call, name.name);
  if (!name || !sent) return null;
  return {
    candidates: [],
    model: null,
    node: call,
    reportNode: name,
    values: sent.values,
    entities: [],
    conditions: [sent.filter],
    shape: { method: name.name, nameNode: name, data: sent.data, filter: sent.filter, helper: true },
  };
}
