// A row this process holds: the function that reads it and writes it back is called, at every call
// of the file, only after a conditional transition claimed that row and the claim's result was
// checked —
//
//   const claimed = await prisma.outboxEvent.updateMany({ where: { id: ev.id, status: 'PENDING' }, data: { status: 'PROCESSING' } });
//   if (claimed.count !== 1) continue;
//   await this.processOne(ev.id);          // reads the row by `id`, writes back `attempts + 1`
//
// Every other process's claim of the row fails while it is held, so no second writer races the
// write-back. A function called from nowhere in the file, or once without such a claim, is reported.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { enclosingFunction, functionNameOf } from '../../analysis/sql/enclosing-function.js';
import { contains, exits } from './control-flow.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** Update methods whose filter and values make a conditional transition (`updateMany({ where, data })`, `updateOne(filter, update)`). */
export const TRANSITION_METHODS: ReadonlySet<string> = new Set(['updateMany', 'update', 'updateOne', 'findOneAndUpdate']);

const objectOf = (node: TSESTree.Node | undefined): TSESTree.ObjectExpression | undefined => {
  const value = node && unwrapExpression(node);
  return value?.type === 'ObjectExpression' ? value : undefined;
};

/** A property's value of an object, by key. */
function valueOf(object: TSESTree.ObjectExpression | undefined, key: string): TSESTree.Node | undefined {
  for (const property of object?.properties ?? [])
    if (property.type === 'Property' && propertyKeyName(property) === key) return unwrapExpression(property.value);
  return undefined;
}

/** The filter and the values of an update call: Prisma's `{ where, data }`, or a document filter and its `$set`. */
export function filterAndValues(
  call: TSESTree.CallExpression,
): [TSESTree.ObjectExpression | undefined, TSESTree.ObjectExpression | undefined] {
  const first = objectOf(call.arguments[0]);
  const where = objectOf(valueOf(first, 'where'));
  if (where) return [where, objectOf(valueOf(first, 'data'))];
  const update = objectOf(call.arguments[1]);
  return [first, objectOf(valueOf(update, '$set')) ?? update];
}

/** Whether `call` moves the row named by `key` from one state to another: a field filtered on a literal, set to another. */
function claimsRow(call: TSESTree.CallExpression, key: string, sourceCode: SourceCode): boolean {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression' || !TRANSITION_METHODS.has(memberPropertyName(callee) ?? '')) return false;
  const [filter, values] = filterAndValues(call);
  if (!filter || !values) return false;
  let namesRow = false;
  let transition = false;
  for (const property of filter.properties) {
    if (property.type !== 'Property') continue;
    const value = unwrapExpression(property.value);
    if (sourceCode.getText(value) === key) namesRow = true;
    const set = valueOf(values, propertyKeyName(property) ?? '');
    if (value.type === 'Literal' && set?.type === 'Literal' && set.value !== value.value) transition = true;
  }
  return namesRow && transition;
}

/** The root name of a test (`claimed.count !== 1` → `claimed`). */
function mentionsName(test: TSESTree.Node, name: string): boolean {
  let node = unwrapExpression(test);
  while (node.type === 'UnaryExpression') node = unwrapExpression(node.argument);
  if (node.type === 'BinaryExpression') return mentionsName(node.left, name) || mentionsName(node.right, name);
  while (node.type === 'MemberExpression') node = unwrapExpression(node.object);
  return node.type === 'Identifier' && node.name === name;
}

/** Whether `statement` keeps a claim of the row `key` names, and `next` leaves unless it changed the row. */
function isCheckedClaim(statement: TSESTree.Node, next: TSESTree.Node | undefined, key: string, sourceCode: SourceCode): boolean {
  if (statement.type !== 'VariableDeclaration' || statement.declarations.length !== 1) return false;
  const { id, init } = statement.declarations[0]!;
  const call = init && unwrapExpression(init, { await: true });
  if (id.type !== 'Identifier' || call?.type !== 'CallExpression' || !claimsRow(call, key, sourceCode)) return false;
  return next?.type === 'IfStatement' && exits(next.consequent) && mentionsName(next.test, id.name);
}

/** Whether a checked claim of the row `key` names comes before `call` in a block around it. */
function claimedBefore(call: TSESTree.CallExpression, key: string, sourceCode: SourceCode): boolean {
  let child: TSESTree.Node = call;
  for (let current: TSESTree.Node | undefined = call.parent; current; child = current, current = current.parent) {
    if (current.type !== 'BlockStatement') continue;
    const at = current.body.indexOf(child as TSESTree.Statement);
    for (let i = 0; i < at; i++) if (isCheckedClaim(current.body[i]!, current.body[i + 1], key, sourceCode)) return true;
  }
  return false;
}

/** Every node under `node` (itself included) handed to `visit`. */
export function walk(node: TSESTree.Node, sourceCode: SourceCode, visit: (node: TSESTree.Node) => void): void {
  visit(node);
  for (const key of sourceCode.visitorKeys[node.type] ?? []) {
    const child = (node as unknown as Record<string, unknown>)[key];
    for (const c of Array.isArray(child) ? child : [child])
      if (c && typeof c === 'object' && 'type' in c) walk(c as TSESTree.Node, sourceCode, visit);
  }
}

/** The calls of the function named `name` in the program (`name(…)`, `this.name(…)`). */
export function callsOf(program: TSESTree.Node, name: string, sourceCode: SourceCode): TSESTree.CallExpression[] {
  const found: TSESTree.CallExpression[] = [];
  walk(program, sourceCode, (node) => {
    if (node.type !== 'CallExpression') return;
    const callee = unwrapExpression(node.callee);
    if (
      callee.type === 'Identifier'
        ? callee.name === name
        : callee.type === 'MemberExpression' &&
          memberPropertyName(callee) === name &&
          unwrapExpression(callee.object).type === 'ThisExpression'
    )
      found.push(node);
  });
  return found;
}

/** Whether the identifier `name` is used in `node`. */
function usesName(node: TSESTree.Node, name: string, sourceCode: SourceCode): boolean {
  let used = false;
  walk(node, sourceCode, (n) => {
    if (
      n.type === 'Identifier' &&
      n.name === name &&
      !(n.parent?.type === 'MemberExpression' && n.parent.property === n && !n.parent.computed)
    )
      used = true;
  });
  return used;
}

/** Whether the row `read` loads (by its function's parameter) and `write` writes back is held by a claim at every call of that function (see the file's head). */
export function readOfClaimedRow(read: TSESTree.Node, write: TSESTree.Node, sourceCode: SourceCode): boolean {
  const fn = enclosingFunction(read);
  const name = functionNameOf(fn);
  if (!fn || name === undefined || !contains(fn, write) || read.type !== 'CallExpression') return false;
  const keyIndex = fn.params.findIndex(
    (param) => param.type === 'Identifier' && read.arguments.some((argument) => usesName(argument, param.name, sourceCode)),
  );
  if (keyIndex < 0) return false;
  const calls = callsOf(sourceCode.ast as TSESTree.Node, name, sourceCode).filter((call) => !contains(fn, call));
  return (
    calls.length > 0 &&
    calls.every((call) => {
      const key = call.arguments[keyIndex];
      return key !== undefined && claimedBefore(call, sourceCode.getText(key), sourceCode);
    })
  );
}
