// A hand-written migrator: a loop over the files of a migrations folder that reads each one and
// sends its text to the database (`for (const file of migrationFiles) await client.query(
// fs.readFileSync(path.join(dir, file), 'utf8'))`). No catalogue names it, and its function is
// often called something plain (`migrate(app)`); each replica that runs it sends the same DDL.
// Asked only of files whose text names migrations and reads a file.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { constantInitializer } from '../../analysis/sql/sql-text-model.js';
import { SQL_METHODS } from '../../src/knowledge/sql.js';
import { FILE_READ_FUNCTIONS, NAMES_MIGRATIONS } from '../../src/knowledge/migrator-methods.js';
import { EMBEDDED_CLIENT_MODULES } from '../../src/knowledge/embedded-databases.js';
import { memberCallsNamed } from './called-names.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** Whether a value is a file's text as read (`fs.readFileSync(p, 'utf8')`, `await readFile(p)`), or a `const` holding one. */
function readsFile(node: TSESTree.Node, sourceCode: SourceCode, hops = 0): boolean {
  const value = unwrapExpression(node, { await: true });
  if (value.type === 'Identifier') {
    const init = hops === 0 ? constantInitializer(value, sourceCode) : undefined;
    return init !== undefined && readsFile(init, sourceCode, hops + 1);
  }
  if (value.type !== 'CallExpression') return false;
  const callee = unwrapExpression(value.callee);
  const name = callee.type === 'Identifier' ? callee.name : callee.type === 'MemberExpression' ? memberPropertyName(callee) : undefined;
  // `readFileSync(…).toString()`
  if (name === 'toString' && callee.type === 'MemberExpression') return readsFile(callee.object, sourceCode, hops);
  return name !== undefined && FILE_READ_FUNCTIONS.has(name);
}

/** Whether an expression names migrations, as written or through the `const` it reads (`migrationFiles`, `readdirSync(migrationsDir)`). */
export function namesMigrations(node: TSESTree.Node, sourceCode: SourceCode): boolean {
  if (NAMES_MIGRATIONS.test(sourceCode.getText(node))) return true;
  const value = unwrapExpression(node);
  const init = value.type === 'Identifier' ? constantInitializer(value, sourceCode) : undefined;
  return init !== undefined && NAMES_MIGRATIONS.test(sourceCode.getText(init));
}

/** The collection the innermost loop around `node` walks: `for (const f of files)`, `files.forEach((f) => …)`. */
export function loopedCollection(node: TSESTree.Node): TSESTree.Node | undefined {
  for (let child: TSESTree.Node = node, at = node.parent; at; child = at, at = at.parent) {
    if ((at.type === 'ForOfStatement' || at.type === 'ForInStatement') && at.body === child) return at.right;
    const isCallback = (at.type === 'ArrowFunctionExpression' || at.type === 'FunctionExpression') && at.parent?.type === 'CallExpression';
    if (!isCallback) continue;
    const callee = unwrapExpression((at.parent as TSESTree.CallExpression).callee);
    if (callee.type === 'MemberExpression' && ['forEach', 'map', 'reduce'].includes(memberPropertyName(callee) ?? '')) return callee.object;
  }
  return undefined;
}

/** Whether an expression lists `.sql` files, as written or through the `const` it reads (`files.filter((f) => f.endsWith('.sql'))`). */
function listsSqlFiles(node: TSESTree.Node, sourceCode: SourceCode): boolean {
  if (SQL_FILE_LITERAL.test(sourceCode.getText(node))) return true;
  const value = unwrapExpression(node);
  const init = value.type === 'Identifier' ? constantInitializer(value, sourceCode) : undefined;
  return init !== undefined && SQL_FILE_LITERAL.test(sourceCode.getText(init));
}
const SQL_FILE_LITERAL = /['"`]\.sql['"`]/;

/**
 * The calls that send each migration file's text to the database, in a loop over a migrations
 * folder's files (or, with `sqlFolders`, over any folder's `.sql` files: `initialization/*.sql` of
 * `CREATE OR REPLACE FUNCTION …` that a project function runs at every start); none in a file that
 * imports an embedded database's driver (`modules`: a SQLite file per host).
 */
export function sqlFileRuns(sourceCode: SourceCode, modules: ReadonlySet<string>, sqlFolders = false): TSESTree.CallExpression[] {
  if (EMBEDDED_CLIENT_MODULES.some((module) => modules.has(module))) return [];
  return memberCallsNamed(sourceCode, SQL_METHODS).filter((call) => {
    const [sql] = call.arguments;
    if (sql === undefined || sql.type === 'SpreadElement' || !readsFile(sql, sourceCode)) return false;
    const collection = loopedCollection(call);
    return collection !== undefined && (namesMigrations(collection, sourceCode) || (sqlFolders && listsSqlFiles(collection, sourceCode)));
  });
}
