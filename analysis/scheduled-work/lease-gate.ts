// A lease taken before the work, whose answer decides whether the work runs: the first statements
// of a function take an election, lease or lock by name and leave when it was not won —
//   const key = await this.elections.getElection('trash', ms); if (!key) return false;
//   if (!(await leases.take('digest', ms))) return;
// Read in the effects walk, so a tick calling a same-class method that begins so (three calls
// deep, or in another module) is coordinated. Log lines may come before it, and it may sit in a
// `try` that is first. A Redis `SET key NX` (`redis.set(key, 1, { NX: true, PX: ttl })`) is such a lock by
// what it does, whatever it is named. A lease-named call whose answer is not tested before the work, or a gate on
// any other call (`if (!rows.length) return;`), is not one.
import type { TSESTree } from '@typescript-eslint/utils';
import { LEADER_WORDS, LEASE_GATE_WORDS } from '../../src/knowledge/per-replica.js';
import { LOG_METHODS } from '../../src/knowledge/work-effects.js';
import { CONDITIONAL_SET_FLAG, CONDITIONAL_SET_METHODS, CONDITIONAL_SET_TAKEN_REPLY } from '../../src/knowledge/redis-clients.js';
import { memberPropertyName } from '../ast/property-names.js';
import { receiverName } from '../ast/receiver-name.js';
import { exits, gatedValue, negated } from './exit-tests.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { nameWords } from '../ast/name-words.js';
import { isInMemoryTally } from './in-memory-tally.js';

/** The call's name or its receiver's says election, lease or lock (`getElection`, `this.leases.take`). */
function namesLease(call: TSESTree.CallExpression): boolean {
  const callee = call.callee;
  const name = callee.type === 'Identifier' ? callee.name : memberPropertyName(callee);
  const receiver = callee.type === 'MemberExpression' ? receiverName(callee.object) : undefined;
  return [name, receiver].some((n) => n !== undefined && nameWords(n).some((w) => LEASE_GATE_WORDS.includes(w)));
}

/** `redis.set(key, token, 'PX', ttl, 'NX')`, `client.set(key, token, { NX: true, PX: ttl })` (Upstash: `{ nx: true, ex }`), `redis.setnx(key, token)`. */
export function isConditionalSet(call: TSESTree.CallExpression): boolean {
  const method = memberPropertyName(call.callee);
  if (method === undefined || !CONDITIONAL_SET_METHODS.includes(method)) return false;
  if (method !== 'set') return true;
  return call.arguments.some(
    (a) =>
      (a.type === 'Literal' && typeof a.value === 'string' && a.value.toUpperCase() === CONDITIONAL_SET_FLAG) ||
      (a.type === 'ObjectExpression' &&
        a.properties.some(
          (p) => p.type === 'Property' && p.key.type === 'Identifier' && p.key.name.toUpperCase() === CONDITIONAL_SET_FLAG,
        )),
  );
}

/** `call`, `await call`, `(await call)!`: the expression that holds the call's answer. */
export function answerOf(call: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression): TSESTree.Node {
  let node: TSESTree.Node = call;
  while (
    node.parent &&
    (node.parent.type === 'AwaitExpression' ||
      node.parent.type === 'ChainExpression' ||
      node.parent.type === 'TSNonNullExpression' ||
      node.parent.type === 'TSAsExpression')
  )
    node = node.parent;
  return node;
}

/** The statement that tests the answer and leaves (`if (!(await call)) return;`, or `const k = await call;` followed by `if (!k) return;`). */
function gateStatement(call: TSESTree.CallExpression): TSESTree.Statement | undefined {
  const answer = answerOf(call);
  // The `if` whose test negates the answer, or the declaration the answer initialises.
  const holder = answer.parent?.type === 'VariableDeclarator' ? answer.parent.parent : answer.parent?.parent;
  if (holder?.type !== 'IfStatement' && holder?.type !== 'VariableDeclaration') return undefined;
  const block = holder.parent;
  if (block?.type !== 'BlockStatement') return undefined;
  const next = block.body[block.body.indexOf(holder) + 1];
  return gatedValue(holder, next) === answer || leavesUnlessTaken(call, holder, next) ? holder : undefined;
}

/** `const won = await redis.set(…, 'NX');` followed by `if (won !== 'OK') return;`: leaves when the key was not taken. */
function leavesUnlessTaken(call: TSESTree.CallExpression, holder: TSESTree.Statement, next: TSESTree.Statement | undefined): boolean {
  if (!isConditionalSet(call) || holder.type !== 'VariableDeclaration' || next?.type !== 'IfStatement' || !exits(next.consequent))
    return false;
  const id = holder.declarations[0]?.id;
  const test = next.test;
  if (id?.type !== 'Identifier' || test.type !== 'BinaryExpression' || (test.operator !== '!==' && test.operator !== '!=')) return false;
  const isAnswer = (node: TSESTree.Node) => node.type === 'Identifier' && node.name === id.name;
  const isTaken = (node: TSESTree.Node) =>
    node.type === 'Literal' && typeof node.value === 'string' && node.value.toUpperCase() === CONDITIONAL_SET_TAKEN_REPLY;
  return (isAnswer(test.left) && isTaken(test.right)) || (isAnswer(test.right) && isTaken(test.left));
}

/** `log.info('sweeping')`, `this.logger.debug(…)`: one log line, not awaited. */
export function isLogLine(statement: TSESTree.Statement): boolean {
  if (statement.type !== 'ExpressionStatement' || statement.expression.type !== 'CallExpression') return false;
  const name = memberPropertyName(statement.expression.callee);
  return name !== undefined && LOG_METHODS.includes(name);
}

/**
 * Nothing before the gate runs work: only declarations that await nothing, log lines and tallies in memory
 * (`stats.ticks += 1;`, in-memory-tally.ts); the gate
 * may sit in a `try` that is itself first (`try { if (!(await lease.take(…))) return; … } catch …`).
 */
function isFirst(statement: TSESTree.Statement): boolean {
  const block = statement.parent;
  if (block?.type !== 'BlockStatement') return false;
  const before = block.body.slice(0, block.body.indexOf(statement));
  const quiet = before.every(
    (s) =>
      isLogLine(s) ||
      isInMemoryTally(s) ||
      (s.type === 'VariableDeclaration' && s.declarations.every((d) => d.init?.type !== 'AwaitExpression')),
  );
  const owner = block.parent;
  if (owner?.type === 'TryStatement' && owner.block === block) return quiet && isFirst(owner);
  return (
    quiet && (owner?.type === 'FunctionDeclaration' || owner?.type === 'FunctionExpression' || owner?.type === 'ArrowFunctionExpression')
  );
}

/** Whether `call` takes a lease at the start of its function and the function leaves when the lease was not won. */
export function isLeaseGate(call: TSESTree.CallExpression): boolean {
  // A Redis `SET key NX` takes the key only if no one holds it: a lock by what it does, whatever it is named.
  if (!namesLease(call) && !isConditionalSet(call)) return false;
  const statement = gateStatement(call);
  return statement !== undefined && isFirst(statement);
}

/** `this.isLeader`, `this.leader.isLeader`, `elected`: a flag or getter read (not called) whose last name says leader. */
function readsLeaderFlag(node: TSESTree.Node): boolean {
  const value = unwrapExpression(node);
  const name = value.type === 'Identifier' ? value.name : value.type === 'MemberExpression' ? memberPropertyName(value) : undefined;
  return name !== undefined && nameWords(name).some((w) => LEADER_WORDS.includes(w));
}

/**
 * `if (!this.isLeader) return;`, `if (!this.running || !this.leader.isLeader) return;` at the start of a
 * function: the work runs only on the replica an election made leader, as a schedule set up under
 * such a condition does.
 */
export function isLeaderExit(statement: TSESTree.IfStatement): boolean {
  if (!exits(statement.consequent) || !isFirst(statement)) return false;
  const tests: TSESTree.Expression[] = [statement.test];
  while (tests.length > 0) {
    const test = tests.pop()!;
    if (test.type === 'LogicalExpression' && test.operator === '||') tests.push(test.left, test.right);
    else {
      const operand = negated(test);
      if (operand && readsLeaderFlag(operand)) return true;
    }
  }
  return false;
}
