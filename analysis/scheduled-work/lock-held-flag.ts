// Work that runs only while this process holds a distributed lock, told by a flag: its first
// statement tests a variable (`if (!hasLock) return;`, `if (hasLock) { … }`, `!stopped && hasLock && run()`)
// that is set `true` only inside a callback handed to a lock or lease call —
//   startRedlock({ resource, onLock: () => { hasLock = true }, onUnlock: () => { hasLock = false } })
//   lock.acquire(key).then(() => { hasLock = true })
// Every replica arms the timer, one runs the work. A flag set true anywhere else (at start, by a
// config read), or under an in-process mutex, is not such a gate.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { HELD_LOCK_WORDS } from '../../src/knowledge/lock-libraries.js';
import { propertyKeyName } from '../ast/property-names.js';
import { receiverName } from '../ast/receiver-name.js';
import { scopeVariable } from '../ast/scope-variable.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { exits, negated } from './exit-tests.js';
import { calleeName } from './work-intent.js';
import { nameWords } from '../ast/name-words.js';
import { isFunctionLike, type FunctionLike } from './work-function.js';

const namesHeldLock = (name: string | undefined): boolean => name !== undefined && nameWords(name).some((w) => HELD_LOCK_WORDS.includes(w));

/** The call's name or its receiver's names a lock or lease (`startRedlock`, `this.lock.acquire`, `leases.take(…).then`). */
function namesLockCall(call: TSESTree.CallExpression): boolean {
  const callee = call.callee;
  if (namesHeldLock(calleeName(callee))) return true;
  if (callee.type !== 'MemberExpression') return false;
  // `acquire(…).then(cb)`: the promise of the lock call.
  if (callee.object.type === 'CallExpression') return namesLockCall(callee.object);
  return namesHeldLock(receiverName(callee.object));
}

/** Whether `fn` is handed to a lock call: its argument, a property of an object argument, or a `.then` callback of it. */
function isLockCallback(fn: FunctionLike): boolean {
  const parent = fn.parent;
  if (parent?.type === 'CallExpression' && parent.arguments.includes(fn as TSESTree.CallExpressionArgument)) return namesLockCall(parent);
  if (parent?.type === 'Property' && parent.value === fn) {
    const object = parent.parent;
    const call = object?.parent;
    // `{ onLock: () => … }` handed to any call names the moment the lock is taken.
    if (namesHeldLock(propertyKeyName(parent)) && call?.type === 'CallExpression') return true;
    return call?.type === 'CallExpression' && call.arguments.includes(object as TSESTree.ObjectExpression) && namesLockCall(call);
  }
  return false;
}

function enclosingFunction(node: TSESTree.Node): FunctionLike | undefined {
  for (let current = node.parent; current; current = current.parent) if (isFunctionLike(current)) return current;
  return undefined;
}

/** The flag a test requires to hold: `flag`, `flag && …`, `… && flag`. */
function requiredFlags(test: TSESTree.Node): TSESTree.Identifier[] {
  const node = unwrapExpression(test);
  if (node.type === 'Identifier') return [node];
  if (node.type === 'LogicalExpression' && node.operator === '&&') return [...requiredFlags(node.left), ...requiredFlags(node.right)];
  return [];
}

/** The flags the first statement of a body requires before its work runs. */
function flagsTestedFirst(body: TSESTree.Node): TSESTree.Identifier[] {
  if (body.type !== 'BlockStatement') return body.type === 'LogicalExpression' ? requiredFlags(body.left) : [];
  const first = body.body[0];
  if (first?.type === 'IfStatement') {
    const operand = negated(first.test);
    if (operand && exits(first.consequent)) return requiredFlags(operand);
    // `if (flag) { work }` as the only statement.
    return body.body.length === 1 ? requiredFlags(first.test) : [];
  }
  if (first?.type === 'ExpressionStatement' && body.body.length === 1) {
    const expression = unwrapExpression(first.expression);
    if (expression.type === 'LogicalExpression' && expression.operator === '&&') return requiredFlags(expression.left);
  }
  return [];
}

/** Whether the variable is written `true` somewhere, and only inside lock callbacks. */
function setTrueOnlyUnderLock(sourceCode: SourceCode, flag: TSESTree.Identifier): boolean {
  const variable = scopeVariable(sourceCode, flag);
  if (!variable) return false;
  let setTrue = false;
  for (const reference of variable.references) {
    if (!reference.isWrite()) continue;
    const write = reference.writeExpr;
    if (!write || (write.type === 'Literal' && write.value === false)) continue;
    if (write.type !== 'Literal' || write.value !== true) return false;
    const fn = enclosingFunction(reference.identifier as TSESTree.Node);
    if (!fn || !isLockCallback(fn)) return false;
    setTrue = true;
  }
  return setTrue;
}

/** Whether the work `fn` begins by requiring a flag that only a lock callback sets. */
export function workGatedByLockHeldFlag(sourceCode: SourceCode, fn: FunctionLike | undefined): boolean {
  if (!fn) return false;
  return flagsTestedFirst(fn.body).some((flag) => setTrueOnlyUnderLock(sourceCode, flag));
}
