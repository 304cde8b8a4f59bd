// A job that claims each item before its side effect: it inserts a marker row a unique key lets
// exist once, in a form that answers "nothing inserted" instead of failing, and skips the item
// when nothing went in —
//   const [sent] = await db.insert(reminders).values(row).onConflictDoNothing().returning();
//   if (!sent) continue;
//   const { rowCount } = await pool.query('INSERT … ON CONFLICT DO NOTHING', …); if (rowCount === 0) return;
//   const { count } = await prisma.sent.createMany({ data, skipDuplicates: true }); if (count === 0) continue;
// — or inserts it in a `try` whose `catch` leaves on the unique violation (`23505`, `P2002`). At
// two replicas only the one whose insert went in sends. A marker whose answer is not tested claims
// nothing: the send happens anyway. Read in the effects walk (external-effects.ts), so the claim
// counts in the work or in a function it calls.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import {
  INSERT_IGNORE_METHODS,
  INSERT_IGNORE_SQL,
  MARKER_INSERT_VERBS,
  SKIP_DUPLICATES_OPTION,
  UNIQUE_VIOLATION_TEXT,
} from '../../src/knowledge/item-claims.js';
import { chainLinksOf, isOutermostCall } from '../ast/method-chain.js';
import { memberPropertyName, propertyKeyName } from '../ast/property-names.js';
import { isFunctionLike } from './work-function.js';
import { exits, negated } from './exit-tests.js';
import { answerOf } from './lease-gate.js';
import { nameWords } from '../ast/name-words.js';
import { boundNames } from '../ast/bound-names.js';

function calleeName(call: TSESTree.CallExpression): string | undefined {
  return call.callee.type === 'Identifier' ? call.callee.name : memberPropertyName(call.callee);
}

/** The text of a string, template or `sql\`…\`` argument. */
function argumentText(node: TSESTree.Node | undefined): string | undefined {
  if (node?.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node?.type === 'TemplateLiteral') return node.quasis.map((q) => q.value.raw).join(' ');
  if (node?.type === 'TaggedTemplateExpression') return argumentText(node.quasi);
  return undefined;
}

/** `{ …, skipDuplicates: true }` among the call's arguments. */
function skipsDuplicates(call: TSESTree.CallExpression): boolean {
  return call.arguments.some(
    (a) =>
      a.type === 'ObjectExpression' &&
      a.properties.some(
        (p) =>
          p.type === 'Property' && propertyKeyName(p) === SKIP_DUPLICATES_OPTION && p.value.type === 'Literal' && p.value.value === true,
      ),
  );
}

/** The insert answers "nothing inserted" on a conflict: an ignoring link in an insert chain, `skipDuplicates`, or such SQL. */
function insertsIgnoringConflict(call: TSESTree.CallExpression): boolean {
  if (INSERT_IGNORE_SQL.test(argumentText(call.arguments[0]) ?? '')) return true;
  const links = chainLinksOf(call);
  const names = links.map((link) => link.name ?? '');
  if (names.some((name) => INSERT_IGNORE_METHODS.includes(name)) && names.some((name) => nameWords(name)[0] === 'insert')) return true;
  return links.some((link) => skipsDuplicates(link.call));
}

function isZero(node: TSESTree.Node): boolean {
  return node.type === 'Literal' && (node.value === 0 || node.value === '0');
}

/** `!x`, `x === 0`, `x.rowCount < 1`, `!x?.length`: the test holds when nothing was inserted; its operand. */
function nothingInserted(test: TSESTree.Expression): TSESTree.Node | undefined {
  const operand = negated(test);
  if (operand) return operand;
  if (test.type !== 'BinaryExpression') return undefined;
  if ((test.operator === '===' || test.operator === '==' || test.operator === '<=') && isZero(test.right)) return test.left;
  if ((test.operator === '===' || test.operator === '==') && isZero(test.left)) return test.right;
  if (test.operator === '<' && test.right.type === 'Literal' && test.right.value === 1) return test.left;
  return undefined;
}

/** `x`, `x.rowCount`, `x?.length`, `(await call).rowCount`: the root the operand reads. */
function rootOf(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  while (current.type === 'ChainExpression' || current.type === 'MemberExpression' || current.type === 'TSNonNullExpression')
    current = current.type === 'MemberExpression' ? current.object : current.expression;
  return current;
}

/** `if (<nothing inserted>) return/continue;`, reading `names` or the answer itself. */
function skipsWhenNothingInserted(statement: TSESTree.Node | undefined, reads: (root: TSESTree.Node) => boolean): boolean {
  if (statement?.type !== 'IfStatement' || !exits(statement.consequent)) return false;
  const operand = nothingInserted(statement.test);
  return operand !== undefined && reads(rootOf(operand));
}

/** The answer of the call is tested and the item skipped (the work left) when it is empty: nothing went in, not claimed. */
export function answerTested(call: TSESTree.CallExpression): boolean {
  const answer = answerOf(call);
  // Inline: `if ((await pool.query(INSERT_IGNORE, …)).rowCount === 0) continue;`
  for (let node: TSESTree.Node | undefined = answer.parent; node && !isFunctionLike(node); node = node.parent) {
    if (node.type === 'IfStatement') return skipsWhenNothingInserted(node, (root) => root === answer);
    if (node.type.endsWith('Statement') || node.type === 'VariableDeclarator') break;
  }
  const declarator = answer.parent;
  if (declarator?.type !== 'VariableDeclarator' || declarator.init !== answer) return false;
  const names = boundNames(declarator.id);
  const declaration = declarator.parent;
  const block = declaration?.parent;
  if (names.length === 0 || declaration?.type !== 'VariableDeclaration' || !block || !('body' in block) || !Array.isArray(block.body))
    return false;
  const next = (block.body as TSESTree.Node[])[(block.body as TSESTree.Node[]).indexOf(declaration) + 1];
  return skipsWhenNothingInserted(next, (root) => root.type === 'Identifier' && names.includes(root.name));
}

/** The `try` whose block holds `call` (no function between), and whose `catch` leaves on a unique violation. */
function catchesUniqueViolation(call: TSESTree.CallExpression, sourceCode: SourceCode): boolean {
  const verb = nameWords(calleeName(call) ?? '')[0];
  if (!MARKER_INSERT_VERBS.includes(verb ?? '')) return false;
  let child: TSESTree.Node = call;
  for (let node: TSESTree.Node | undefined = call.parent; node && !isFunctionLike(node); child = node, node = node.parent) {
    if (node.type !== 'TryStatement') continue;
    if (child !== node.block || !node.handler) return false;
    const body = node.handler.body.body;
    const leaves = body.some(
      (s) =>
        s.type === 'ReturnStatement' ||
        s.type === 'ContinueStatement' ||
        (s.type === 'IfStatement' && exits(s.consequent) && UNIQUE_VIOLATION_TEXT.test(sourceCode.getText(s.test))),
    );
    return leaves && UNIQUE_VIOLATION_TEXT.test(sourceCode.getText(node.handler.body));
  }
  return false;
}

/** Whether `call` inserts a marker row that claims one item, and the item is skipped when the claim was lost. */
export function isItemClaim(call: TSESTree.CallExpression, sourceCode: SourceCode): boolean {
  if (!isOutermostCall(call)) return false;
  if (insertsIgnoringConflict(call)) return answerTested(call);
  return catchesUniqueViolation(call, sourceCode);
}
