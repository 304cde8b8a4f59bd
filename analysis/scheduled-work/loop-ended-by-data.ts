// A loop that ends on what it reads, not on a stop flag: its test is a local `let` of the function
// the loop runs in (`while (hasMore)`, `while (!done)`), and the loop's own body sets it from data
// (`hasMore = Boolean(page.next)`, `done = rows.length < limit`). A paged import or a drain walks
// to its end once, pausing between pages; it is no period. A flag set only to a literal
// (`running = false` on an error) or only by another function (a `stop()`, a signal handler), or a
// module-level or instance flag, keeps the loop endless.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { scopeVariable } from '../ast/scope-variable.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { descendants } from '../sql/descendants.js';
import { isFunctionLike } from './work-function.js';

/** The function (or program) a node sits in. */
function ownerOf(node: TSESTree.Node): TSESTree.Node | undefined {
  for (let current = node.parent; current; current = current.parent) if (isFunctionLike(current)) return current;
  return undefined;
}

/** Whether the loop's test is a local flag its own body sets from what it read (see the file's head). */
export function endsOnData(loop: TSESTree.WhileStatement | TSESTree.ForStatement, sourceCode: SourceCode): boolean {
  const test = loop.test && unwrapExpression(loop.test);
  const flag = test?.type === 'UnaryExpression' && test.operator === '!' ? test.argument : test;
  if (flag?.type !== 'Identifier') return false;
  const variable = scopeVariable(sourceCode, flag);
  const def = variable?.defs.length === 1 ? variable.defs[0]! : undefined;
  if (def?.type !== 'Variable' || def.parent?.kind !== 'let') return false;
  const owner = ownerOf(loop);
  if (owner === undefined || ownerOf(def.node) !== owner) return false;
  // Assignments in the loop's body itself, not in a function it builds (a handler that stops it).
  const inBody = [...descendants(loop.body, sourceCode.visitorKeys, isFunctionLike)];
  return inBody.some(
    (node) =>
      node.type === 'AssignmentExpression' &&
      node.left.type === 'Identifier' &&
      node.left.name === flag.name &&
      node.right.type !== 'Literal' &&
      ownerOf(node) === owner,
  );
}
