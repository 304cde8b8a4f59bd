// Work that runs only on the branch where this replica won a Redis lease: the answer of a `SET key
// NX` (with its expiry) kept in a name, and an `if` further on that runs the work only when it says
// the key was taken —
//   const won = await redis.set(leaseKey, id, 'EX', 30, 'NX');   (or `ttl ? await redis.set(…) : 'OK'`)
//   const plan = await Plan.findOne(…);
//   if (won === 'OK') { …work… } else { log.debug('held elsewhere'); }
//   setTimeout(tick, nextRunIn(plan));
// The other statements (reads, log lines, the reschedule) and the other branch write nothing shared.
// A lease whose answer no `if` tests, or a shared write outside the won branch, keeps the report.
import type { TSESTree } from '@typescript-eslint/utils';
import { workEffects, type EffectsOptions } from '../../analysis/scheduled-work/external-effects.js';
import { isConditionalSet } from '../../analysis/scheduled-work/lease-gate.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import type { FunctionLike } from '../../analysis/scheduled-work/work-function.js';

/** What a Redis `SET … NX` answers when it took the key. */
const TAKEN_REPLY = 'OK';

/** `await redis.set(…, 'NX')`, or one branch of `ttl ? await redis.set(…, 'NX') : 'OK'`. */
function isLeaseAnswer(init: TSESTree.Expression): boolean {
  const value = unwrapExpression(init, { await: true });
  if (value.type === 'CallExpression') return isConditionalSet(value);
  if (value.type !== 'ConditionalExpression') return false;
  return [value.consequent, value.alternate].some((branch) => isLeaseAnswer(branch));
}

/** The name `const won = <lease answer>;` keeps the answer in. */
function leaseAnswerName(statement: TSESTree.Statement): string | undefined {
  if (statement.type !== 'VariableDeclaration' || statement.declarations.length !== 1) return undefined;
  const { id, init } = statement.declarations[0]!;
  return id.type === 'Identifier' && init && isLeaseAnswer(init) ? id.name : undefined;
}

/** `won`, `won === 'OK'`, `'OK' == won`: the test holds only when the key was taken. */
function testsTaken(test: TSESTree.Expression, name: string): boolean {
  const isName = (node: TSESTree.Node) => node.type === 'Identifier' && node.name === name;
  if (isName(test)) return true;
  if (test.type !== 'BinaryExpression' || (test.operator !== '===' && test.operator !== '==')) return false;
  const isTaken = (node: TSESTree.Node) =>
    node.type === 'Literal' && typeof node.value === 'string' && node.value.toUpperCase() === TAKEN_REPLY;
  return (isName(test.left) && isTaken(test.right)) || (isName(test.right) && isTaken(test.left));
}

/** Whether the work function's shared writes all sit in the branch of an `if` that a won Redis lease opens. */
export function workRunsOnWonLease(fn: FunctionLike | undefined, effectsOptions: EffectsOptions): boolean {
  if (fn?.body.type !== 'BlockStatement') return false;
  const statements = fn.body.body;
  const at = statements.findIndex((statement) => leaseAnswerName(statement) !== undefined);
  if (at < 0) return false;
  const name = leaseAnswerName(statements[at]!)!;
  const branch = statements.slice(at + 1).find((s): s is TSESTree.IfStatement => s.type === 'IfStatement' && testsTaken(s.test, name));
  if (!branch) return false;
  const writesShared = (node: TSESTree.Node | null) => node !== null && workEffects(node, effectsOptions).sharedWrite;
  return statements.every((s, i) => i === at || (s === branch ? !writesShared(branch.alternate) : !writesShared(s)));
}
