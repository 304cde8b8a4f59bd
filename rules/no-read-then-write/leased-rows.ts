// A row this replica leased: the function that writes back a field of a row it is handed
// (`event.attempts += 1; await repo.save(event)`) is called, at every call of the file, with an
// element of the rows a function of the file leased —
//
//   const events = await this.leaseBatch(50);   // reads skipping locked rows, then updates them (the lease)
//   for (const event of events) await this.deliver(event);
//
// The lease function reads the rows skipping those another worker locked (SKIP LOCKED) and updates
// them in the same function (a lease time pushed ahead, a status or an owner set): another
// worker's lease passes them over while this one holds them, so no second writer races the
// write-back. A function also called with a row from elsewhere, or rows read with SKIP LOCKED but
// not updated (the lock ends with the lease function's transaction), is still reported.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { functionNameOf, isFunctionNode, type FunctionNode } from '../../analysis/sql/enclosing-function.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { ROW_UPDATE_TEXT, SKIP_LOCKED_TEXT } from '../../src/knowledge/row-leases.js';
import { callsOf } from './claimed-rows.js';
import { calledFunction } from './parameter-rows.js';
import { contains } from './control-flow.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** Per function: whether it leases the rows it returns (asked once). */
const leasing = new WeakMap<FunctionNode, boolean>();

function leasesRows(fn: FunctionNode, sourceCode: SourceCode): boolean {
  let answer = leasing.get(fn);
  if (answer === undefined) {
    const text = sourceCode.getText(fn);
    leasing.set(fn, (answer = SKIP_LOCKED_TEXT.test(text) && ROW_UPDATE_TEXT.test(text)));
  }
  return answer;
}

/** The list a `for (const row of list)` iterates, `row` being `name`'s one declaration; through one `const` bound to it. */
function iteratedList(name: TSESTree.Identifier, sourceCode: SourceCode): TSESTree.Node | undefined {
  const defs = scopeVariable(sourceCode, name)?.defs;
  const declarator = defs?.length === 1 ? defs[0]?.node : undefined;
  const loop = declarator?.parent?.parent;
  if (declarator?.type !== 'VariableDeclarator' || loop?.type !== 'ForOfStatement' || loop.left !== declarator.parent) return undefined;
  const list = unwrapExpression(loop.right, { await: true });
  if (list.type !== 'Identifier') return list;
  const listDefs = scopeVariable(sourceCode, list)?.defs;
  const bound = listDefs?.length === 1 ? listDefs[0]?.node : undefined;
  return bound?.type === 'VariableDeclarator' && bound.id.type === 'Identifier' && bound.init
    ? unwrapExpression(bound.init, { await: true })
    : undefined;
}

/** Whether `argument` is an element of the rows a lease function of the file returned. */
function isLeasedElement(argument: TSESTree.Node | undefined, sourceCode: SourceCode): boolean {
  if (argument?.type !== 'Identifier') return false;
  const list = iteratedList(argument, sourceCode);
  const lease = list?.type === 'CallExpression' ? calledFunction(list, sourceCode.ast) : undefined;
  return lease !== undefined && leasesRows(lease, sourceCode);
}

/** Whether `read` is a parameter of its function that every call of the file hands a leased row (see the file's head). */
export function readOfLeasedRow(read: TSESTree.Node, sourceCode: SourceCode): boolean {
  const fn = read.parent;
  if (read.type !== 'Identifier' || !fn || !isFunctionNode(fn)) return false;
  const index = fn.params.indexOf(read);
  const name = functionNameOf(fn);
  if (index < 0 || name === undefined) return false;
  const calls = callsOf(sourceCode.ast, name, sourceCode).filter((call) => !contains(fn, call));
  return calls.length > 0 && calls.every((call) => isLeasedElement(call.arguments[index], sourceCode));
}
