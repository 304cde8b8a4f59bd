// Whether a collection field of the instance holds rows read from a shared store: assigned an awaited
// value, or filled item by item — a method of the
// class awaits a read (`await db.schedule.findMany()`, `await this.getAllEntries()`; READ_VERBS) into
// a variable and puts its items into the field — directly (`rows.forEach((r) => this.entries.push(r))`)
// or through a method of the class that does (`for (const row of rows) this.insert(row)`). A timer
// walking such a field works on shared rows (src/knowledge/loaded-collections.ts).
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { COLLECTION_PUT_METHODS } from '../../src/knowledge/loaded-collections.js';
import { READ_VERBS } from '../../src/knowledge/host-local.js';
import { assignedFieldValues } from '../ast/class-fields.js';
import { memberPropertyName } from '../ast/property-names.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { nameWords } from '../ast/name-words.js';
import { descendants } from '../sql/descendants.js';
import { ownMethodCalled, type FunctionLike } from './work-function.js';

type Keys = SourceCode['visitorKeys'];

/** `this.entries.push(…)`: a put into the field `name` of this instance. */
function putsInto(node: TSESTree.Node, name: string): boolean {
  if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression') return false;
  const target = unwrapExpression(node.callee.object);
  return (
    COLLECTION_PUT_METHODS.includes(memberPropertyName(node.callee) ?? '') &&
    target.type === 'MemberExpression' &&
    target.object.type === 'ThisExpression' &&
    memberPropertyName(target) === name
  );
}

/** A put into the field, in `node` or in a method of the class it calls (one call away). */
function putsIntoHere(node: TSESTree.Node, name: string, keys: Keys): boolean {
  for (const inner of [node, ...descendants(node, keys)]) {
    if (putsInto(inner, name)) return true;
    const method = inner.type === 'CallExpression' ? ownMethodCalled(inner) : undefined;
    if (method && [...descendants(method.body, keys)].some((n) => putsInto(n, name))) return true;
  }
  return false;
}

/** `const rows = await db.entry.findMany()`, `let raw = await this.getAllEntries()`: the variable an awaited read fills. */
function readInto(declarator: TSESTree.Node): string | undefined {
  if (declarator.type !== 'VariableDeclarator' || declarator.id.type !== 'Identifier' || declarator.init?.type !== 'AwaitExpression')
    return undefined;
  const call = unwrapExpression(declarator.init.argument);
  const callee = call.type === 'CallExpression' ? unwrapExpression(call.callee) : undefined;
  const name = callee?.type === 'Identifier' ? callee.name : callee?.type === 'MemberExpression' ? memberPropertyName(callee) : undefined;
  return name !== undefined && READ_VERBS.includes(nameWords(name)[0] ?? '') ? declarator.id.name : undefined;
}

/** The loops over a variable in a method: `for (const r of rows)`, `rows.forEach((r) => …)`, `rows.map(…)`. */
function loopsOver(method: FunctionLike, variable: string, keys: Keys): TSESTree.Node[] {
  const named = (node: TSESTree.Node) => node.type === 'Identifier' && node.name === variable;
  const loops: TSESTree.Node[] = [];
  for (const node of descendants(method.body, keys)) {
    if (node.type === 'ForOfStatement' && named(node.right)) loops.push(node.body);
    if (node.type === 'CallExpression' && node.callee.type === 'MemberExpression' && named(node.callee.object))
      loops.push(...node.arguments);
  }
  return loops;
}

/**
 * Whether the field `this.<name>` of the class around `member` is loaded from outside the process:
 * assigned an awaited value (`this.due = await db.schedule.findMany()`), or filled item by item.
 */
export function loadedFromOutside(member: TSESTree.MemberExpression, keys: Keys): boolean {
  return assignedFieldValues(member, keys).some((value) => value.type === 'AwaitExpression') || filledFromSharedRows(member, keys);
}

/** The answers per class and field: the own-collection walk asks of every walk of a field it meets. */
const answers = new WeakMap<TSESTree.ClassBody, Map<string, boolean>>();

/** Whether the field `this.<name>` of the class around `member` is filled from rows read from a shared store. */
function filledFromSharedRows(member: TSESTree.MemberExpression, keys: Keys): boolean {
  const name = memberPropertyName(member);
  let body: TSESTree.Node | undefined = member.parent;
  while (body && body.type !== 'ClassBody') body = body.parent;
  if (name === undefined || body?.type !== 'ClassBody') return false;
  let fields = answers.get(body);
  if (!fields) answers.set(body, (fields = new Map()));
  let answer = fields.get(name);
  if (answer === undefined) fields.set(name, (answer = fieldFilledFrom(body, name, keys)));
  return answer;
}

function fieldFilledFrom(body: TSESTree.ClassBody, name: string, keys: Keys): boolean {
  for (const element of body.body) {
    const method = element.type === 'MethodDefinition' && element.value.type === 'FunctionExpression' ? element.value : undefined;
    if (!method?.async) continue;
    for (const node of descendants(method.body, keys)) {
      const variable = readInto(node);
      if (variable && loopsOver(method, variable, keys).some((loop) => putsIntoHere(loop, name, keys))) return true;
    }
  }
  return false;
}
