// A schema write behind a guard that stops the code unless it runs under tests: a helper that
// begins `if (!isTest()) throw new Error('tests only')` (or `if (process.env.NODE_ENV !== 'test')
// return;`) before it drops and re-synchronises the database. Outside a test run the guard throws,
// so no replica's start gets to the write. The guard is an `if` without `else`, earlier in a block
// around the write (its function's body, or the module's top level), whose branch throws or
// returns. A guard for production only (`NODE_ENV === 'production'`) is not one: staging and
// every other deployment go on to the write.
import type { TSESTree } from '@typescript-eslint/utils';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { RUN_ENVIRONMENT_NAME_PATTERN } from '../../src/knowledge/per-replica.js';
import { TEST_ENVIRONMENTS, TEST_FLAG_PATTERN } from '../../src/knowledge/test-environments.js';

type Node = TSESTree.Node;

/** The last name an expression is read or called by: `isTest` of `isTest()`, `NODE_ENV` of `process.env.NODE_ENV`. */
function lastName(node: Node): string | undefined {
  const value = unwrapExpression(node, { await: true });
  const named = value.type === 'CallExpression' ? unwrapExpression(value.callee) : value;
  if (named.type === 'Identifier') return named.name;
  return named.type === 'MemberExpression' ? memberPropertyName(named) : undefined;
}

/** Whether a comparison sets the run environment against a test value (`NODE_ENV === 'test'`, `'testing' != env`). */
function comparesWithTestEnvironment(node: TSESTree.BinaryExpression): boolean {
  const sides = [node.left, node.right];
  const literal = sides.find((side) => side.type === 'Literal' && typeof side.value === 'string') as TSESTree.StringLiteral | undefined;
  const other = sides.find((side) => side !== literal);
  const name = other && lastName(other);
  return (
    literal !== undefined &&
    TEST_ENVIRONMENTS.includes(literal.value.toLowerCase()) &&
    name !== undefined &&
    RUN_ENVIRONMENT_NAME_PATTERN.test(name.replace(/_/g, ''))
  );
}

/** Whether `test` holds exactly when the code runs under tests (`holds` true), or exactly when it does not (`holds` false). */
function saysUnderTests(test: Node, holds: boolean): boolean {
  const node = unwrapExpression(test);
  if (node.type === 'UnaryExpression' && node.operator === '!') return saysUnderTests(node.argument, !holds);
  // `if (!isTest() || !allowed) throw`: thrown whenever either side holds.
  if (!holds && node.type === 'LogicalExpression' && node.operator === '||')
    return saysUnderTests(node.left, false) || saysUnderTests(node.right, false);
  if (node.type === 'BinaryExpression' && ['===', '==', '!==', '!='].includes(node.operator))
    return comparesWithTestEnvironment(node) && node.operator.startsWith('=') === holds;
  const name = lastName(node);
  return holds && name !== undefined && TEST_FLAG_PATTERN.test(name.replace(/_/g, ''));
}

/** Whether a statement ends the code that follows it: `throw`, `return`, or a block whose last statement does. */
function stops(statement: TSESTree.Statement): boolean {
  if (statement.type === 'ThrowStatement' || statement.type === 'ReturnStatement') return true;
  const last = statement.type === 'BlockStatement' ? statement.body.at(-1) : undefined;
  return last !== undefined && stops(last);
}

/** `if (!isTest()) throw …` with no `else`. */
const isTestOnlyGuard = (statement: Node): boolean =>
  statement.type === 'IfStatement' && !statement.alternate && stops(statement.consequent) && saysUnderTests(statement.test, false);

/** Whether a node runs only under tests: a block around it (or the module) stops earlier unless under tests. */
export function runsOnlyUnderTests(node: Node): boolean {
  for (let child: Node = node, parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (parent.type !== 'BlockStatement' && parent.type !== 'Program') continue;
    const body: readonly Node[] = parent.body;
    const at = body.indexOf(child);
    for (let i = 0; i < at; i++) if (isTestOnlyGuard(body[i]!)) return true;
  }
  return false;
}

/** `report`, silent for the schema writes that run only under tests (see above). */
export function outsideTestOnlyCode<Report extends (descriptor: never) => void>(report: Report): Report {
  return ((descriptor: { node: Node }) => {
    if (!runsOnlyUnderTests(descriptor.node)) report(descriptor as never);
  }) as unknown as Report;
}
