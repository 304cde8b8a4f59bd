// The lock / early return / work / unlock shape of one function, read from the rule's facts: the
// statements that go (lock, early return, unlock) and the work that moves into `runExclusive`.
// Anything that does not fit exactly is a reason for a manual marker instead.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { NoSessionAdvisoryLockFacts } from '../../../rules/no-session-advisory-lock.js';
import { contains, escapingStatement, isBareReturn, isCallStatement, statementIn } from '../../engine/statements.js';

export interface LeaseShape {
  body: TSESTree.BlockStatement;
  /** The lock statement: where the `runExclusive` call starts. */
  lock: TSESTree.Statement;
  /** `try { work } finally { unlock }`, when the work is written that way. */
  tryStatement: TSESTree.TryStatement | undefined;
  /** The work statements (the try block's when there is a try). */
  work: TSESTree.Statement[];
  /** The unlock statement (inside the finally block when there is a try). */
  unlock: TSESTree.Statement;
  /**
   * What the function did when the lock was not taken, when more than a bare `return` (a log, a
   * `throw`, `return 0`): replayed after the lease as `if (!lease.ran) <exit>`.
   */
  exit: TSESTree.Statement | undefined;
  /** The work returns from the function (allowed only when the `try` ends it): `return lease.value` follows. */
  returnsValue: boolean;
}

type Facts = NoSessionAdvisoryLockFacts;
type FunctionNode = NonNullable<Facts['enclosingFunction']>;

/** Variables declared by `statement` are read only inside `allowed` (the lock and its early return). */
function declaredOnlyUsedIn(statement: TSESTree.Statement, allowed: ReadonlyArray<TSESTree.Node>, sourceCode: SourceCode): boolean {
  if (statement.type !== 'VariableDeclaration') return true;
  for (const declarator of statement.declarations) {
    for (const variable of sourceCode.getDeclaredVariables(declarator)) {
      for (const reference of variable.references) {
        const at = reference.identifier.range[0];
        if (!allowed.some((node) => contains(node, at))) return false;
      }
    }
  }
  return true;
}

/** Variables declared in the work and read after it would fall out of scope inside the callback. */
function workDeclarationsEscape(work: readonly TSESTree.Statement[], sourceCode: SourceCode): boolean {
  const first = work[0];
  const last = work[work.length - 1];
  if (!first || !last) return false;
  const range = { range: [first.range[0], last.range[1]] as const };
  for (const statement of work) {
    if (statement.type !== 'VariableDeclaration' && statement.type !== 'FunctionDeclaration' && statement.type !== 'ClassDeclaration')
      continue;
    for (const variable of sourceCode.getDeclaredVariables(statement)) {
      if (variable.references.some((r) => !contains(range, r.identifier.range[0]))) return true;
    }
  }
  return false;
}

/**
 * A name the lock call sends that the function itself declares (a parameter, a local): the lock is
 * one per value (`pg_try_advisory_lock(hashtext($1))` with `[merchantId]`), and one fixed lease key
 * would make every value wait for every other.
 */
function keyFromFunction(call: NonNullable<Facts['lockCall']>, fn: FunctionNode, sourceCode: SourceCode): string | undefined {
  const roots: TSESTree.Node[] = call.type === 'CallExpression' ? call.arguments : call.quasi.expressions;
  let found: string | undefined;
  const visit = (node: TSESTree.Node): void => {
    if (found) return;
    if (
      node.type === 'Identifier' &&
      !(node.parent?.type === 'MemberExpression' && node.parent.property === node && !node.parent.computed)
    ) {
      for (let scope: ReturnType<SourceCode['getScope']> | null = sourceCode.getScope(node as never); scope; scope = scope.upper) {
        const variable = scope.set.get(node.name);
        if (!variable) continue;
        const at = variable.defs[0]?.name.range[0];
        if (at !== undefined && contains(fn, at)) found = node.name;
        return;
      }
      return;
    }
    for (const key of Object.keys(node) as Array<keyof typeof node>) {
      if (key === 'parent') continue;
      const value = node[key] as unknown;
      for (const child of Array.isArray(value) ? value : [value])
        if (child && typeof child === 'object' && typeof (child as { type?: unknown }).type === 'string') visit(child as TSESTree.Node);
    }
  };
  for (const root of roots) visit(root);
  return found;
}

/** `return …;`, `throw …;`, or a block ending in one: the branch always leaves the function. */
function alwaysExits(statement: TSESTree.Statement): boolean {
  const last = statement.type === 'BlockStatement' ? statement.body[statement.body.length - 1] : statement;
  return last?.type === 'ReturnStatement' || last?.type === 'ThrowStatement';
}

export function leaseShape(
  fn: NonNullable<Facts['enclosingFunction']>,
  lock: Facts,
  unlock: Facts | undefined,
  sourceCode: SourceCode,
): LeaseShape | { manual: string } {
  if (fn.generator) return { manual: 'the lock is taken in a generator; wrap the work in runExclusive by hand' };
  if (fn.body.type !== 'BlockStatement')
    return { manual: 'the lock is taken in an expression-bodied arrow function; wrap the work in runExclusive by hand' };
  if (!lock.lockCall) return { manual: 'the lock SQL is not sent by a call the codemod knows; wrap the work in runExclusive by hand' };
  if (!unlock?.lockCall)
    return { manual: 'no unlock in this function: the lock is held for the session; replace it with runExclusive around the work by hand' };
  const body = fn.body;
  const lockStatement = statementIn(body, lock.lockCall);
  const unlockOuter = statementIn(body, unlock.lockCall);
  if (!lockStatement || !unlockOuter)
    return {
      manual:
        'the lock or unlock is not a statement of the function body (nested in a branch or loop); wrap the work in runExclusive by hand',
    };
  if (!['ExpressionStatement', 'VariableDeclaration', 'IfStatement'].includes(lockStatement.type)) {
    return { manual: 'the lock is taken inside a nested block, branch or loop; wrap the work in runExclusive by hand' };
  }
  const index = body.body.indexOf(lockStatement);

  // The lock statement, and the early return when the lock does not skip on its own.
  let next = index + 1;
  const removed: TSESTree.Node[] = [lockStatement];
  let exit: TSESTree.Statement | undefined;
  if (lockStatement.type === 'IfStatement') {
    // `if (!(await tryLock())) return;` (or a branch that logs, throws, returns a value).
    if (lockStatement.alternate || !alwaysExits(lockStatement.consequent) || !contains(lockStatement.test, lock.lockCall.range[0]))
      return { manual: exitReason() };
    if (isBareReturn(lockStatement.consequent) !== 'bare') exit = lockStatement.consequent;
  } else if (lockStatement.type === 'VariableDeclaration') {
    const candidate = body.body[next];
    if (candidate?.type === 'IfStatement' && !candidate.alternate && alwaysExits(candidate.consequent)) {
      if (isBareReturn(candidate.consequent) !== 'bare') exit = candidate.consequent;
      removed.push(candidate);
      next += 1;
    }
    // The lock's result may be read by the early exit's test, never by what the exit does.
    const reads = exit && candidate?.type === 'IfStatement' ? [lockStatement, candidate.test] : removed;
    if (!declaredOnlyUsedIn(lockStatement, reads, sourceCode))
      return { manual: "the lock's result is used beyond a plain early return; wrap the work in runExclusive by hand" };
  } else if (!isCallStatement(lockStatement, lock.lockCall)) {
    return { manual: 'the lock call is part of a larger statement; wrap the work in runExclusive by hand' };
  } else if (lock.kind === 'try') {
    // `await pool.query('SELECT pg_try_advisory_lock(1)')` whose result is never read.
    const candidate = body.body[next];
    if (candidate?.type === 'IfStatement' && !candidate.alternate && isBareReturn(candidate.consequent) !== undefined) {
      return { manual: 'the early return does not read the lock result; check what it tests and wrap the work in runExclusive by hand' };
    }
  }

  const following = body.body[next];
  let tryStatement: TSESTree.TryStatement | undefined;
  let work: TSESTree.Statement[];
  let unlockStatement: TSESTree.Statement;
  if (following?.type === 'TryStatement' && following === unlockOuter) {
    if (following.handler) return { manual: 'the work has a catch clause; wrap the try statement in runExclusive by hand' };
    const finalizer = following.finalizer;
    const only = finalizer?.body.length === 1 ? finalizer.body[0] : undefined;
    if (!only || !isCallStatement(only, unlock.lockCall))
      return { manual: 'the finally block does more than unlock; wrap the work in runExclusive by hand' };
    tryStatement = following;
    work = following.block.body;
    unlockStatement = only;
  } else {
    const unlockIndex = body.body.indexOf(unlockOuter);
    if (unlockIndex <= next || !isCallStatement(unlockOuter, unlock.lockCall)) {
      return { manual: 'the unlock is not a plain statement after the work; wrap the work in runExclusive by hand' };
    }
    work = body.body.slice(next, unlockIndex);
    unlockStatement = unlockOuter;
    if (workDeclarationsEscape(work, sourceCode))
      return { manual: 'names declared in the work are used after the unlock; wrap the work in runExclusive by hand' };
  }
  if (work.length === 0) return { manual: 'there is no work between the lock and the unlock' };
  // A `try` that ends the function may return from the work: the callback returns it, `return lease.value` passes it on.
  const returns = tryStatement !== undefined && body.body[body.body.length - 1] === tryStatement;
  for (const statement of work) {
    const escape = escapingStatement(statement, { returns });
    if (escape) return { manual: `${escape}, which means something else inside a runExclusive callback; rewrite it by hand` };
  }
  const perValue = keyFromFunction(lock.lockCall, fn, sourceCode);
  if (perValue)
    return {
      manual: `the lock key depends on \`${perValue}\` (one lock per value); give runExclusive a key built from it (\`<service>:<job>:\${${perValue}}\`) by hand`,
    };
  const returnsValue = returns && work.some((statement) => escapingStatement(statement) === 'the work returns from the function');
  return { body, lock: lockStatement, tryStatement, work, unlock: unlockStatement, exit, returnsValue };
}

function exitReason(): string {
  return 'the lock result is tested in a branch that does more than leave the function; wrap the work in runExclusive by hand';
}
