// Field changes made on a loaded entity by a call rather than an assignment: Sequelize and
// Mongoose `entity.set('count', n)` / `entity.set({ count: n })`, `Object.assign(entity, { count: n })`,
// and a domain entity's own method that changes an amount it holds (`wallet.topUp(amount)` as a
// statement of its own): the field it changes is not seen, so the change is of the row as a whole.
import type { TSESTree } from '@typescript-eslint/utils';
import { AMOUNT_CHANGING_METHODS } from '../../src/knowledge/loaded-value-forms.js';
import type { FieldChange, Taint } from './model.js';
import { changeOf } from './taint.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';

export interface EntityChangeCall {
  /** The entity changed. */
  entity: TSESTree.Node;
  /** Field and new value pairs (field `null` when the key is not static). */
  changes: { field: string | null; value: TSESTree.Node }[];
  /** An amount method's call (`wallet.topUp(amount)`): a change of a field the call does not name. */
  method?: TSESTree.CallExpression;
}

const AMOUNT_METHOD: ReadonlySet<string> = new Set(AMOUNT_CHANGING_METHODS);

/** `row.topUp(amount)` alone as a statement, handed values (not a callback): a mutating method, not one that returns a new value. */
function isAmountMethodCall(call: TSESTree.CallExpression, method: string | undefined): boolean {
  return (
    method !== undefined &&
    AMOUNT_METHOD.has(method) &&
    call.arguments.length > 0 &&
    call.arguments.every((a) => a.type !== 'ArrowFunctionExpression' && a.type !== 'FunctionExpression') &&
    call.parent.type === 'ExpressionStatement'
  );
}

function pairsOf(first: TSESTree.Node | undefined, second: TSESTree.Node | undefined): EntityChangeCall['changes'] {
  if (first?.type === 'Literal' && typeof first.value === 'string') {
    return second && second.type !== 'SpreadElement' ? [{ field: first.value, value: second }] : [];
  }
  if (first?.type !== 'ObjectExpression') return [];
  return first.properties.flatMap((property) => {
    if (property.type !== 'Property') return [];
    const field = !property.computed && property.key.type === 'Identifier' ? property.key.name : null;
    return [{ field, value: property.value }];
  });
}

/** The entity change `call` makes, when `isLoadedEntity` says its target is a loaded entity. */
export function entityChangeCallOf(
  call: TSESTree.CallExpression,
  isLoadedEntity: (node: TSESTree.Node) => boolean,
): EntityChangeCall | null {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression') return null;
  const method = memberPropertyName(callee);
  const [first, second, third] = call.arguments;
  if (method === 'set' && isLoadedEntity(callee.object)) {
    return { entity: callee.object, changes: pairsOf(first, second) };
  }
  const object = unwrapExpression(callee.object);
  if (method === 'assign' && object.type === 'Identifier' && object.name === 'Object' && first && isLoadedEntity(first)) {
    return { entity: first, changes: pairsOf(second, third) };
  }
  if (isAmountMethodCall(call, method) && isLoadedEntity(callee.object)) return { entity: callee.object, changes: [], method: call };
  return null;
}

/** The field changes `changed` makes, given the taint of each value it sets. */
export function entityFieldChanges(changed: EntityChangeCall, taintOf: (node: TSESTree.Node) => Taint | null): FieldChange[] {
  const out: FieldChange[] = [];
  for (const { field, value } of changed.changes) {
    const t = taintOf(value);
    const change = t ? changeOf(field, t) : null;
    if (change) out.push(change);
  }
  if (changed.method) out.push({ field: null, node: changed.method, operator: null, operand: null });
  return out;
}
