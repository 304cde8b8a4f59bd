// A read and its write-back inside one MongoDB transaction (src/knowledge/document-sessions.ts):
//
//   await session.withTransaction(async () => {
//     const user = await User.findById(id).session(session);
//     user.balance += amount;
//     await user.save({ session });
//   });
//
//   session.startTransaction();
//   const user = await User.findById(id).session(session); user.balance -= amount; await user.save({ session });
//
// Both operations name one session, and that session's transaction is running around the read: a
// callback of `session.withTransaction(…)` (or of a transaction runner whose parameter is the
// session), or a `session.startTransaction()` statement before it, not ended before the write. A
// concurrent writer of the document makes one of the two transactions fail: nothing is lost. A read
// outside the transaction (no session named), or a write that leaves it, is still a lost update.
import type { TSESTree } from '@typescript-eslint/utils';
import { TRANSACTION_RUNNERS } from '../../src/knowledge/orm-reads-writes.js';
import {
  SESSION_KEY,
  SESSION_TRANSACTION_ENDS,
  SESSION_TRANSACTION_RUNNERS,
  SESSION_TRANSACTION_STARTS,
} from '../../src/knowledge/document-sessions.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { isFunctionNode } from '../../analysis/sql/enclosing-function.js';
import { contains } from './control-flow.js';

/** The session an options object names (`{ session }`, `{ session: s }`). */
function sessionOption(argument: TSESTree.Node): string | undefined {
  if (argument.type !== 'ObjectExpression') return undefined;
  for (const property of argument.properties) {
    if (property.type !== 'Property' || propertyKeyName(property) !== SESSION_KEY) continue;
    const value = unwrapExpression(property.value);
    return value.type === 'Identifier' ? value.name : undefined;
  }
  return undefined;
}

/** The session a call's chain names: `.session(s)` anywhere in it, or `{ session: s }` in one of its calls' options. */
export function sessionOf(node: TSESTree.Node): string | undefined {
  let top = node;
  // Up to the outermost call of the chain (`Model.findById(id)` → `….session(s)`).
  while (top.parent?.type === 'MemberExpression' && top.parent.object === top && top.parent.parent?.type === 'CallExpression')
    top = top.parent.parent;
  for (let link: TSESTree.Node | undefined = top; link;) {
    if (link.type === 'CallExpression') {
      const callee = unwrapExpression(link.callee);
      const named = callee.type === 'MemberExpression' && memberPropertyName(callee) === SESSION_KEY ? link.arguments[0] : undefined;
      if (named?.type === 'Identifier') return named.name;
      for (const argument of link.arguments) {
        const session = sessionOption(argument);
        if (session !== undefined) return session;
      }
      link = callee;
    } else if (link.type === 'MemberExpression') link = unwrapExpression(link.object);
    else link = undefined;
  }
  return undefined;
}

const isNamed = (node: TSESTree.Node, name: string): boolean => {
  const value = unwrapExpression(node);
  return value.type === 'Identifier' && value.name === name;
};

/** Whether `statement` calls `<session>.<one of methods>()` (awaited or not). */
function callsSessionMethod(statement: TSESTree.Node, session: string, methods: readonly string[]): boolean {
  if (statement.type !== 'ExpressionStatement') return false;
  const call = unwrapExpression(statement.expression, { await: true });
  if (call.type !== 'CallExpression') return false;
  const callee = unwrapExpression(call.callee);
  return callee.type === 'MemberExpression' && isNamed(callee.object, session) && methods.includes(memberPropertyName(callee) ?? '');
}

/** The callback a call runs as a transaction of `session`: `session.withTransaction(fn)`, or `connection.transaction((session) => …)`. */
function isTransactionCallback(fn: TSESTree.Node, session: string): boolean {
  const call = fn.parent;
  if (!isFunctionNode(fn) || call?.type !== 'CallExpression' || !call.arguments.includes(fn as TSESTree.CallExpressionArgument))
    return false;
  const callee = unwrapExpression(call.callee);
  const name = callee.type === 'MemberExpression' ? memberPropertyName(callee) : callee.type === 'Identifier' ? callee.name : undefined;
  if (name === undefined) return false;
  if (callee.type === 'MemberExpression' && SESSION_TRANSACTION_RUNNERS.includes(name) && isNamed(callee.object, session)) return true;
  return TRANSACTION_RUNNERS.includes(name) && fn.params.some((param) => isNamed(param, session));
}

/** Whether a statement ending the session's transaction comes after `from` and before `write`, in a block from `write` up to `outer`. */
function endedBetween(from: number, write: TSESTree.Node, session: string, outer: TSESTree.Node): boolean {
  for (let current = write.parent; current; current = current.parent) {
    if (current.type === 'BlockStatement' || current.type === 'Program') {
      const body = current.body as TSESTree.Node[];
      for (const statement of body)
        if (
          statement.range[0] > from &&
          statement.range[1] <= write.range[0] &&
          callsSessionMethod(statement, session, SESSION_TRANSACTION_ENDS)
        )
          return true;
    }
    if (current === outer) break;
  }
  return false;
}

/** Whether a `session.startTransaction()` statement of a block around `node` comes before it, and no end of it comes before `write`. */
function startedBefore(
  block: TSESTree.BlockStatement | TSESTree.Program,
  child: TSESTree.Node,
  session: string,
  write: TSESTree.Node,
): boolean {
  const body = block.body as TSESTree.Node[];
  const at = body.indexOf(child);
  const start = body.find((statement, i) => i < at && callsSessionMethod(statement, session, SESSION_TRANSACTION_STARTS));
  return start !== undefined && contains(block, write) && !endedBetween(start.range[1], write, session, block);
}

/** Whether `read` and `write` run in one MongoDB transaction (see the file's head). */
export function inDocumentTransaction(read: TSESTree.Node, write: TSESTree.Node): boolean {
  if (read.type !== 'CallExpression' || write.type !== 'CallExpression') return false;
  const session = sessionOf(read);
  if (session === undefined) return false;
  // A document read in a session keeps it: Mongoose's `doc.save()` writes in it with no option given.
  const writeSession = sessionOf(write);
  const callee = unwrapExpression(write.callee);
  const savesDocument = callee.type === 'MemberExpression' && memberPropertyName(callee) === 'save' && write.arguments.length === 0;
  if (writeSession !== session && !(writeSession === undefined && savesDocument)) return false;
  let child: TSESTree.Node = read;
  for (let current: TSESTree.Node | undefined = read.parent; current; child = current, current = current.parent) {
    if (isTransactionCallback(current, session)) return contains(current, write);
    if ((current.type === 'BlockStatement' || current.type === 'Program') && startedBefore(current, child, session, write)) return true;
  }
  return false;
}
