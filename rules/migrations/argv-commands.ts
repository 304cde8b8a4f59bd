// A schema write in the branch of a sub-command read from the command line (`if (process.argv[2]
// === 'apply') await connection.runMigrations()`, `switch (command) { case 'up': … }` with
// `const command = process.argv[2]`) runs when an operator types that word: a migrate command of
// the file, not a step of a replica's start. A server started with no argument never takes the
// branch. A switch read as an option (`process.argv.includes('--migrate')`) is not a sub-command:
// a deploy may pass it to every pod, and it stays reported.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { isProcessGlobal } from '../../analysis/ast/process-env.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** `process.argv` itself. */
function isArgv(node: TSESTree.Node): boolean {
  const value = unwrapExpression(node);
  return value.type === 'MemberExpression' && memberPropertyName(value) === 'argv' && isProcessGlobal(value.object);
}

/** `process.argv[2]` (a position past the node binary and the script), also `process.argv.slice(2)[0]`. */
function isArgvWordRead(node: TSESTree.Node): boolean {
  const value = unwrapExpression(node);
  if (value.type !== 'MemberExpression' || !value.computed || value.property.type !== 'Literal') return false;
  const index = value.property.value;
  if (typeof index !== 'number') return false;
  if (isArgv(value.object)) return index >= 2;
  const sliced = unwrapExpression(value.object);
  return (
    sliced.type === 'CallExpression' &&
    sliced.callee.type === 'MemberExpression' &&
    memberPropertyName(sliced.callee) === 'slice' &&
    isArgv(sliced.callee.object)
  );
}

/**
 * Whether `node` reads a word of the command line: `process.argv[2]` itself, or a variable bound
 * once to it (`const command = process.argv[2]`, `const [, , command] = process.argv`).
 */
function readsCommandWord(node: TSESTree.Node, sourceCode: SourceCode): boolean {
  const value = unwrapExpression(node);
  if (isArgvWordRead(value)) return true;
  if (value.type !== 'Identifier') return false;
  const variable = scopeVariable(sourceCode, value);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  const declarator = def?.node;
  if (declarator?.type !== 'VariableDeclarator' || !declarator.init) return false;
  if (declarator.id.type === 'Identifier') return isArgvWordRead(declarator.init);
  // `const [, , command] = process.argv`: a name bound past the first two places.
  if (declarator.id.type !== 'ArrayPattern' || !isArgv(declarator.init)) return false;
  const place = declarator.id.elements.findIndex((element) => element?.type === 'Identifier' && element.name === value.name);
  return place >= 2;
}

const isWord = (node: TSESTree.Node): boolean => node.type === 'Literal' && typeof node.value === 'string';

/** Whether an `if` test compares a command-line word with a literal word (`process.argv[2] === 'apply'`). */
function testsCommandWord(test: TSESTree.Node, sourceCode: SourceCode): boolean {
  const value = unwrapExpression(test);
  if (value.type === 'LogicalExpression') return testsCommandWord(value.left, sourceCode) || testsCommandWord(value.right, sourceCode);
  if (value.type !== 'BinaryExpression' || (value.operator !== '===' && value.operator !== '==')) return false;
  return (
    (isWord(value.right) && readsCommandWord(value.left, sourceCode)) || (isWord(value.left) && readsCommandWord(value.right, sourceCode))
  );
}

/** Whether `node` lies in the branch of a command-line sub-command: an `if`'s consequent, or a `case` of a switch on the word. */
export function inCommandLineBranch(node: TSESTree.Node, sourceCode: SourceCode): boolean {
  for (let child: TSESTree.Node = node, parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (parent.type === 'IfStatement' && parent.consequent === child && testsCommandWord(parent.test, sourceCode)) return true;
    if (parent.type === 'SwitchCase' && parent.test && isWord(parent.test) && parent.parent.type === 'SwitchStatement') {
      if (readsCommandWord(parent.parent.discriminant, sourceCode)) return true;
    }
  }
  return false;
}

/** `report`, silent for schema writes in a command-line sub-command's branch. */
export function outsideCommandLineBranches<Report extends (descriptor: never) => void>(sourceCode: SourceCode, report: Report): Report {
  return ((descriptor: { messageId: string; node: TSESTree.Node }) => {
    if (
      (descriptor.messageId === 'schemaWriteCall' || descriptor.messageId === 'schemaWriteCommand') &&
      inCommandLineBranch(descriptor.node, sourceCode)
    )
      return;
    report(descriptor as never);
  }) as unknown as Report;
}
