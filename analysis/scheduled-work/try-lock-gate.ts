// A database lock tried before the work, whose answer decides whether the work goes on: SQL that
// calls a try-lock function (`SELECT pg_try_advisory_lock($1) AS ok`, written in place, in a
// query tag or kept in a `const`), its answer kept in a variable — and maybe read into another
// (`locked = r.rows[0]?.ok === true`, `const acquired = rows[0]?.pg_try_advisory_lock`, from a destructured
// `const [rows] = await sequelize.query(…)`) — and
// tested by an `if` that leaves when the lock was not won (or runs the work only when it was).
// Another replica's try answers false while this one holds the lock, so one replica runs the work.
// A try whose answer is not tested before the work goes on, or a blocking `pg_advisory_lock`
// (judged elsewhere), is no such gate.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { SESSION_ADVISORY_LOCK_FUNCTIONS, SQL_METHODS, XACT_ADVISORY_LOCK_FUNCTIONS } from '../../src/knowledge/sql.js';
import { memberPropertyName } from '../ast/property-names.js';
import { descendants } from '../sql/descendants.js';
import { sqlTextOf } from '../sql/sql-text-model.js';
import { exits, negated } from './exit-tests.js';
import { answerOf } from './lease-gate.js';
import { boundNames } from '../ast/bound-names.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** The try-lock functions: they answer whether they took the lock instead of waiting for it. */
const TRY_LOCK_FUNCTIONS: readonly string[] = [
  ...Object.entries(SESSION_ADVISORY_LOCK_FUNCTIONS)
    .filter(([, lock]) => lock.kind === 'try')
    .map(([name]) => name),
  ...XACT_ADVISORY_LOCK_FUNCTIONS.filter((name) => name.includes('_try_')),
];
const TRY_LOCK_CALL = new RegExp(`\\b(?:${TRY_LOCK_FUNCTIONS.join('|')})\\s*\\(`, 'i');

/** How many statements after the try the gate may come (the answer read into a flag, a log line). */
const GATE_WITHIN = 4;

/** The SQL text a call or query tag sends, when it may try a lock. */
function triedSql(node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression, sourceCode: SourceCode): string | undefined {
  if (node.type === 'TaggedTemplateExpression') return node.quasi.quasis.map((q) => q.value.raw).join('$1');
  const method = memberPropertyName(node.callee);
  if (method === undefined || !SQL_METHODS.has(method) || node.arguments.length === 0) return undefined;
  return sqlTextOf(node.arguments[0], sourceCode)?.text;
}

function mentions(node: TSESTree.Node, names: ReadonlySet<string>, sourceCode: SourceCode): boolean {
  if (node.type === 'Identifier') return names.has(node.name);
  for (const child of descendants(node, sourceCode.visitorKeys)) if (child.type === 'Identifier' && names.has(child.name)) return true;
  return false;
}

/** The name a statement stores a value read from `names` in (`const ok = r.rows[0].ok`, `locked = …`), if it does. */
function storedFrom(statement: TSESTree.Statement, names: ReadonlySet<string>, sourceCode: SourceCode): string | undefined {
  if (statement.type === 'VariableDeclaration' && statement.declarations.length === 1) {
    const declarator = statement.declarations[0]!;
    if (declarator.id.type === 'Identifier' && declarator.init && mentions(declarator.init, names, sourceCode)) return declarator.id.name;
  }
  const expression = statement.type === 'ExpressionStatement' ? statement.expression : undefined;
  if (expression?.type === 'AssignmentExpression' && expression.left.type === 'Identifier' && mentions(expression.right, names, sourceCode))
    return expression.left.name;
  return undefined;
}

/** `if (!ok) return;` or `if (ok) { work }` on a name holding the answer. */
function gatesOn(statement: TSESTree.IfStatement, names: ReadonlySet<string>, sourceCode: SourceCode): boolean {
  const operand = negated(statement.test);
  if (operand !== undefined) return exits(statement.consequent) && mentions(operand, names, sourceCode);
  return statement.alternate === null && mentions(statement.test, names, sourceCode);
}

/** Whether a call or query tag sends SQL that tries a lock (`SELECT pg_try_advisory_lock($1)`). */
export function triesLock(node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression, sourceCode: SourceCode): boolean {
  const sql = triedSql(node, sourceCode);
  return sql !== undefined && TRY_LOCK_CALL.test(sql);
}

/** Whether `node` tries a database lock and the statements right after it leave (or skip the work) when it was not won. */
export function isTryLockGate(node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression, sourceCode: SourceCode): boolean {
  if (!triesLock(node, sourceCode)) return false;
  const answer = answerOf(node);
  const holder = answer.parent;
  // `if (!(await tryLock…)) return;`: the answer tested where it is asked.
  if (holder?.type === 'UnaryExpression' && holder.operator === '!' && holder.parent?.type === 'IfStatement')
    return holder.parent.test === holder && exits(holder.parent.consequent);
  // `const r = await …`, `const [rows] = await sequelize.query(…)`, `locked = await …`.
  const stored =
    holder?.type === 'VariableDeclarator'
      ? { names: boundNames(holder.id), statement: holder.parent }
      : holder?.type === 'AssignmentExpression' && holder.left.type === 'Identifier'
        ? { names: [holder.left.name], statement: holder.parent }
        : undefined;
  const block = stored?.statement?.parent;
  if (!stored || stored.names.length === 0 || block?.type !== 'BlockStatement') return false;
  const names = new Set(stored.names);
  const at = block.body.indexOf(stored.statement as TSESTree.Statement);
  for (const statement of block.body.slice(at + 1, at + 1 + GATE_WITHIN)) {
    if (statement.type === 'IfStatement') {
      if (gatesOn(statement, names, sourceCode)) return true;
      continue;
    }
    const name = storedFrom(statement, names, sourceCode);
    if (name !== undefined) names.add(name);
  }
  return false;
}
