// A migration run in the part of a start path that only runs for SQLite, when a service supports
// both a server database and a file beside it (`if (isPgsql) { … } else { … }`): that branch
// migrates the host's own file and races no replica, while the other branch stays judged. Two
// marks, read only for a call about to be reported:
// - the statement list holding the call sends SQLite's own statement, `PRAGMA …`, to the database the run migrates
//   (`await conn.query('PRAGMA foreign_keys=OFF'); await conn.runMigrations();`, better-sqlite3's
//   `db.pragma(…)`); PostgreSQL and MySQL have no PRAGMA;
// - an `if` around the call chooses SQLite: its test names SQLite (`isSqlite`, `config.useSqlite`,
//   `isSQLite()`) or compares with an embedded driver's name (`type === 'sqlite'`,
//   `client == 'better-sqlite3'`) and the call is in its consequent, or the negated test
//   (`!isSqlite`, `type !== 'sqlite'`) and the call is in its alternate.
// The `else` of a test that only names the server database (`if (isPostgres) … else …`) is not
// enough by itself: a third dialect (MySQL) may share that branch.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { sqlTextOf } from '../../analysis/sql/sql-text-model.js';
import { SQL_METHODS } from '../../src/knowledge/sql.js';
import { EMBEDDED_DRIVER_VALUES, EMBEDDED_MAKER_NAME } from '../../src/knowledge/embedded-databases.js';

type Node = TSESTree.Node;
type SourceCode = Readonly<TSESLint.SourceCode>;

/** SQLite's statement for its own settings; no server database speaks it. */
const PRAGMA_STATEMENT = /^\s*pragma\b/i;
/** better-sqlite3's method for it (`db.pragma('journal_mode = WAL')`). */
const PRAGMA_METHOD = 'pragma';
const EMBEDDED_DRIVER_NAMES: ReadonlySet<string> = new Set(Object.values(EMBEDDED_DRIVER_VALUES).flat());

const isFunction = (node: Node): boolean =>
  node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression';

/** The database an expression reaches, as the first names of its chain: `db` of `db.sequelize.query`, `this.conn` of `this.conn.migrate`. */
function databaseKey(node: Node): string | undefined {
  let value = unwrapExpression(node, { await: true });
  let member: string | undefined;
  for (;;) {
    if (value.type === 'MemberExpression') {
      member = memberPropertyName(value);
      value = unwrapExpression(value.object, { await: true });
    } else if (value.type === 'CallExpression') {
      value = unwrapExpression(value.callee, { await: true });
    } else break;
  }
  if (value.type === 'Identifier') return value.name;
  return value.type === 'ThisExpression' && member !== undefined ? `this.${member}` : undefined;
}

/** The databases a migration call works on: its receiver's and those of its arguments (`migrate(db, …)`). */
function databasesOf(call: TSESTree.CallExpression): Set<string> {
  const keys = new Set<string>();
  const callee = unwrapExpression(call.callee);
  const nodes = [...(callee.type === 'MemberExpression' ? [callee.object] : []), ...call.arguments];
  for (const node of nodes) {
    const key = node.type === 'SpreadElement' ? undefined : databaseKey(node);
    if (key !== undefined) keys.add(key);
  }
  return keys;
}

/** Whether a statement sends `PRAGMA …` to one of `databases` (`await conn.query('PRAGMA …')`, `db.pragma(…)`). */
function sendsPragma(statement: Node, databases: ReadonlySet<string>, sourceCode: SourceCode): boolean {
  if (statement.type !== 'ExpressionStatement') return false;
  const call = unwrapExpression(statement.expression, { await: true });
  if (call.type !== 'CallExpression') return false;
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression') return false;
  const key = databaseKey(callee.object);
  if (key === undefined || !databases.has(key)) return false;
  const method = memberPropertyName(callee);
  if (method === PRAGMA_METHOD) return true;
  if (method === undefined || !SQL_METHODS.has(method)) return false;
  const sql = sqlTextOf(call.arguments[0], sourceCode);
  return sql !== undefined && PRAGMA_STATEMENT.test(sql.text);
}

/** `true` when the test holds for SQLite only (`isSqlite`, `type === 'sqlite'`), `false` for its negation, undefined otherwise. */
function testsForSqlite(test: Node): boolean | undefined {
  const value = unwrapExpression(test);
  if (value.type === 'UnaryExpression' && value.operator === '!') {
    const inner = testsForSqlite(value.argument);
    return inner === undefined ? undefined : !inner;
  }
  if (value.type === 'BinaryExpression' && ['===', '==', '!==', '!='].includes(value.operator)) {
    const names = [value.left, value.right].some(
      (side) => side.type === 'Literal' && typeof side.value === 'string' && EMBEDDED_DRIVER_NAMES.has(side.value),
    );
    return names ? value.operator.startsWith('=') : undefined;
  }
  const named = value.type === 'CallExpression' ? unwrapExpression(value.callee) : value;
  const name = named.type === 'Identifier' ? named.name : named.type === 'MemberExpression' ? memberPropertyName(named) : undefined;
  return name !== undefined && EMBEDDED_MAKER_NAME.test(name) ? true : undefined;
}

/** The statements a block, a module or a `case` runs in order. */
function statementList(node: Node): readonly Node[] | undefined {
  if (node.type === 'BlockStatement' || node.type === 'Program') return node.body;
  return node.type === 'SwitchCase' ? node.consequent : undefined;
}

/**
 * Whether a migration call runs only for SQLite: the statement list holding it sends `PRAGMA` to
 * the database it migrates, or an `if` around it (within its function) chooses SQLite.
 */
export function runsInSqliteBranch(call: TSESTree.CallExpression, sourceCode: SourceCode): boolean {
  const databases = databasesOf(call);
  let child: Node = call;
  let innermost = true;
  for (let node: Node | undefined = call.parent; node && !isFunction(node); child = node, node = node.parent as Node | undefined) {
    const statements = statementList(node);
    if (statements && innermost) {
      innermost = false;
      // Only the statement list holding the call, and only when its text holds the word.
      const mayHold = databases.size > 0 && /\bpragma\b/i.test(sourceCode.text.slice(node.range[0], node.range[1]));
      if (mayHold && statements.some((statement) => statement !== child && sendsPragma(statement, databases, sourceCode))) return true;
    }
    if (node.type === 'IfStatement' && child !== node.test) {
      const sqlite = testsForSqlite(node.test);
      if (sqlite !== undefined && sqlite === (child === node.consequent)) return true;
    }
  }
  return false;
}
