// A timer that waits until something is ready, then does its work once: the function checks
// (`const up = await pingDatabase();`), runs the work when the check passes and sets the timer
// again only when it fails —
//   const waitForStore = async () => {
//     const up = await pingStore();
//     if (up) { await warmUp(); } else { retryTimer = setTimeout(waitForStore, 15_000); }
//   };
// It stops once the work ran: each replica waits for its own start-up, no period repeats. A loop
// that re-arms after its work (in the passing branch, after the `if`, or through another function
// of the file the passing branch calls) is a schedule and is judged as one.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { isLogLine } from '../../analysis/scheduled-work/lease-gate.js';
import { isFunctionLike, type FunctionLike } from '../../analysis/scheduled-work/work-function.js';

/** The name the function is declared under (`function waitForStore`, `const waitForStore = async () => …`). */
function declaredName(fn: FunctionLike): string | undefined {
  if (fn.type === 'FunctionDeclaration' || fn.type === 'FunctionExpression') if (fn.id) return fn.id.name;
  const declarator = fn.parent;
  return declarator?.type === 'VariableDeclarator' && declarator.id.type === 'Identifier' ? declarator.id.name : undefined;
}

const mentions = (sourceCode: SourceCode, node: TSESTree.Node, name: string): boolean =>
  [node, ...descendants(node, sourceCode.visitorKeys)].some((n) => n.type === 'Identifier' && n.name === name);

/** `setTimeout(name, ms)` as a statement, assigned to a handle, or returned. */
function rearms(statement: TSESTree.Statement, name: string): boolean {
  let value: TSESTree.Node | null | undefined =
    statement.type === 'ExpressionStatement' ? statement.expression : statement.type === 'ReturnStatement' ? statement.argument : undefined;
  if (value?.type === 'AssignmentExpression') value = value.right;
  const call = value && unwrapExpression(value);
  const work = call?.type === 'CallExpression' ? call.arguments[0] : undefined;
  return work?.type === 'Identifier' && work.name === name;
}

/** The failing branch: only the re-arm and log lines. */
function onlyRearms(branch: TSESTree.Statement, name: string): boolean {
  const statements = branch.type === 'BlockStatement' ? branch.body : [branch];
  return statements.some((s) => rearms(s, name)) && statements.every((s) => rearms(s, name) || isLogLine(s));
}

/** A call in the passing branch of a function of this file whose body mentions the waiting function (re-arms it). */
function callsRearmingFunction(sourceCode: SourceCode, branch: TSESTree.Node, name: string): boolean {
  for (const node of descendants(branch, sourceCode.visitorKeys)) {
    if (node.type !== 'CallExpression' || node.callee.type !== 'Identifier') continue;
    const def = scopeVariable(sourceCode, node.callee)?.defs[0];
    const target =
      def?.type === 'FunctionName' ? def.node : def?.type === 'Variable' ? (def.node as TSESTree.VariableDeclarator).init : undefined;
    if (target && isFunctionLike(target) && mentions(sourceCode, target.body, name)) return true;
  }
  return false;
}

/** Whether `fn` waits until a check passes, re-arming itself only while it fails (see the file's head). */
export function waitsUntilReady(sourceCode: SourceCode, fn: FunctionLike): boolean {
  const name = declaredName(fn);
  if (name === undefined || fn.body.type !== 'BlockStatement') return false;
  const statements = fn.body.body;
  const last = statements.at(-1);
  if (last?.type !== 'IfStatement' || !last.alternate || !onlyRearms(last.alternate, name)) return false;
  // The check before the branch: declarations and log lines, nothing re-armed there.
  const before = statements.slice(0, -1);
  if (!before.every((s) => (s.type === 'VariableDeclaration' || isLogLine(s)) && !mentions(sourceCode, s, name))) return false;
  return !mentions(sourceCode, last.consequent, name) && !callsRearmingFunction(sourceCode, last.consequent, name);
}
