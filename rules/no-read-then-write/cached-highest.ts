// A maximum cached in the process and handed out plus one: a field of the class (`this.last`) or a
// variable of the module (`let lastTicket`) filled from a read of the largest stored value, then
// stepped per call (`++this.last`, `lastTicket += 1`, `nextNumber++`). Every replica caches the
// same maximum and hands out the same numbers. Asked of the increments the rule collects.
import { chainStart } from '../../analysis/ast/chain-root.js';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { incrementedOperand, isHighest, libraryOf, originsOf, type NextFromHighest, type Origin } from './next-from-highest.js';

type Node = TSESTree.Node;

/** Whether a member chain starts at `this` (`this.numbers`, `this.client.tickets.numbers`). */
function fromThis(node: Node): boolean {
  return chainStart(node, { unwrap: 'wrappers' }).type === 'ThisExpression';
}

/**
 * `this.next`, an entry of a map the class keeps per key (`this.numbers[guildId]`, also reached
 * through the instance's own handles: `this.client.tickets.numbers[guildId]`), or a bare name
 * (`next`, judged by `moduleHolder`): where a process may keep a number between calls.
 */
function holderName(node: Node): string | undefined {
  const value = unwrapExpression(node);
  if (value.type === 'MemberExpression' && value.object.type === 'ThisExpression') return memberPropertyName(value);
  if (value.type === 'MemberExpression' && value.computed) {
    const map = unwrapExpression(value.object);
    return map.type === 'MemberExpression' && !map.computed && fromThis(map) ? memberPropertyName(map) : undefined;
  }
  if (value.type === 'Identifier') return value.name;
  return undefined;
}

/** Whether `node` hands out the next number from a holder: `++this.next`, `this.next++`, `this.next += 1`, `next++` (not a `for` loop's step). */
export function cachedIncrementOf(node: TSESTree.UpdateExpression | TSESTree.AssignmentExpression): string | undefined {
  if (node.parent?.type === 'ForStatement' && node.parent.update === node) return undefined;
  if (node.type === 'UpdateExpression') return node.operator === '++' ? holderName(node.argument) : undefined;
  const step = node.right;
  return node.operator === '+=' && step.type === 'Literal' && step.value === 1 ? holderName(node.left) : undefined;
}

/** `(top?.n ?? 0) + 1`: a holder filled with the maximum already stepped past is filled from the maximum. */
function steppedPast(value: Node): Node {
  const expr = unwrapExpression(value);
  return (expr.type === 'BinaryExpression' && expr.operator === '+' && incrementedOperand(expr)) || expr;
}

/** The origin of the largest value among `values` (what a holder is given), when one is such a read. */
function highestAmong(values: readonly Node[], holder: string, sourceCode: Readonly<SourceCode>): Origin | undefined {
  for (const value of values) {
    const origin = originsOf(steppedPast(value), sourceCode, [], holder).find((o) => isHighest(o, holder, sourceCode));
    if (origin) return origin;
  }
  return undefined;
}

/** The names a module declares with `let` / `var` at its top level (also exported), found once per program. */
const moduleLets = new WeakMap<TSESTree.Program, ReadonlySet<string>>();
function letsOfModule(program: TSESTree.Program): ReadonlySet<string> {
  let names = moduleLets.get(program);
  if (names) return names;
  const found = new Set<string>();
  for (const statement of program.body) {
    const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
    if (declaration?.type !== 'VariableDeclaration' || declaration.kind === 'const') continue;
    for (const declarator of declaration.declarations) if (declarator.id.type === 'Identifier') found.add(declarator.id.name);
  }
  names = found;
  moduleLets.set(program, names);
  return names;
}

/** What a variable of the module (`let lastNumber`, not a function's own) is given: its initialiser and every `=`. */
function moduleHolderValues(identifier: TSESTree.Identifier, sourceCode: Readonly<SourceCode>): Node[] {
  if (!letsOfModule(sourceCode.ast as TSESTree.Program).has(identifier.name)) return [];
  const variable = scopeVariable(sourceCode, identifier);
  const scope = variable?.scope.type;
  if (!variable || (scope !== 'module' && scope !== 'global')) return [];
  const values: Node[] = [];
  for (const def of variable.defs) if (def.node.type === 'VariableDeclarator' && def.node.init) values.push(def.node.init);
  for (const reference of variable.references) {
    const parent = (reference.identifier as Node).parent;
    if (parent?.type === 'AssignmentExpression' && parent.operator === '=' && parent.left === reference.identifier)
      values.push(parent.right);
  }
  return values;
}

/** Whether `node` gives a field of the class a value (`this.next = …`): the assignments the rule collects in its traversal. */
export function isThisFieldAssignment(node: TSESTree.AssignmentExpression): boolean {
  return node.left.type === 'MemberExpression' && holderName(node.left) !== undefined;
}

/**
 * What each `this.<name>` of a class is given (`this.next = …`), by name, from the file's
 * `this`-field assignments in source order (`isThisFieldAssignment`, collected by ESLint's own
 * traversal): those inside the class body, nested classes included, as a walk of the body would
 * find them — found once per class, however many increments ask, without walking it again.
 */
const classAssignments = new WeakMap<TSESTree.ClassBody, ReadonlyMap<string, readonly Node[]>>();
function classHolderValues(
  body: TSESTree.ClassBody,
  assignments: readonly TSESTree.AssignmentExpression[],
): ReadonlyMap<string, readonly Node[]> {
  let byHolder = classAssignments.get(body);
  if (byHolder) return byHolder;
  const found = new Map<string, Node[]>();
  const [start, end] = body.range;
  for (const inner of assignments) {
    if (inner.range[0] < start || inner.range[1] > end) continue;
    const name = holderName(inner.left)!;
    const values = found.get(name);
    if (values) values.push(inner.right);
    else found.set(name, [inner.right]);
  }
  byHolder = found;
  classAssignments.set(body, byHolder);
  return byHolder;
}

/**
 * A maximum cached in the process and handed out plus one (`this.next = (await
 * repo.findOne({ order: { id: 'DESC' } })).id` once, then `++this.next` per call; or a variable of
 * the module, `let lastTicket`, filled the same way): every replica caches the same maximum and
 * hands out the same numbers. The holder must be assigned, somewhere in the class or the module,
 * from a read of the largest value (or a helper named for it), also already plus one.
 */
export function cachedHighestOf(
  node: TSESTree.UpdateExpression | TSESTree.AssignmentExpression,
  sourceCode: Readonly<SourceCode>,
  thisAssignments: readonly TSESTree.AssignmentExpression[],
): NextFromHighest | undefined {
  const holder = cachedIncrementOf(node);
  if (!holder) return undefined;
  const target = unwrapExpression(node.type === 'UpdateExpression' ? node.argument : node.left);
  let values: readonly Node[] = [];
  if (target.type === 'Identifier') values = moduleHolderValues(target, sourceCode);
  else {
    let body: Node | undefined = node.parent;
    while (body && body.type !== 'ClassBody') body = body.parent;
    if (!body) return undefined;
    values = classHolderValues(body, thisAssignments).get(holder) ?? [];
  }
  const origin = highestAmong(values, holder, sourceCode);
  return origin ? { value: node, write: node, field: holder, read: origin.call, library: libraryOf(origin.call, sourceCode) } : undefined;
}
