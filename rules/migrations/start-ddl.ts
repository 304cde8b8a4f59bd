// Hand-written DDL a service sends to its shared database as it starts, where it is written: a
// statement at the top level of a module, run whenever the module is loaded (`client.query('CREATE
// TABLE IF NOT EXISTS …')` beside `new pg.Client(url)`), and the statements of a function named for
// laying out the database (`export async function initStore() { await pool.query(`CREATE TABLE …`) }`,
// ClickHouse's `client.exec({ query: 'CREATE TABLE …' })`). Each replica that starts sends the
// same DDL. Only a module that talks to a database server is read: it imports a server driver, or
// sends through a client built by a class or factory named for one (`new PostgresPool()`).
// Never a module that imports an embedded driver, nor a client built on one. What is only a
// `DROP` (a reset) is not layout DDL. The file's role and the function's callers are judged as for
// every finding (scripts, tests, tools, request handlers).
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { moduleSpecifiers } from '../../analysis/imports/imported-references.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { calleeName } from '../../analysis/ast/callee-name.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { SQL_METHODS } from '../../src/knowledge/sql.js';
import { STATEMENT_METHODS } from '../../src/knowledge/migration-runs.js';
import { EMBEDDED_CLIENT_MODULES } from '../../src/knowledge/embedded-databases.js';
import {
  INITIALISER_NAME,
  LAYOUT_DDL,
  LAYOUT_DDL_WORDS,
  SERVER_DRIVER_MODULES,
  SERVER_ENGINE_NAME,
} from '../../src/knowledge/start-ddl.js';
import { isDdlText } from './ddl-executions.js';
import { receiverIsEmbedded } from './embedded-database.js';

type Node = TSESTree.Node;
type Call = TSESTree.CallExpression;
type FunctionNode = TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression | TSESTree.FunctionDeclaration;
type SourceCode = Readonly<TSESLint.SourceCode>;

const isFunction = (node: Node | null | undefined): node is FunctionNode =>
  node?.type === 'FunctionExpression' || node?.type === 'ArrowFunctionExpression' || node?.type === 'FunctionDeclaration';
const isScope = (node: Node): boolean => isFunction(node) || node.type === 'ClassBody';

/** Whether a file's text may hold layout DDL (a cheap look for a word, then the pattern). */
export const mayRunStartDdl = (text: string): boolean => LAYOUT_DDL_WORDS.some((word) => text.includes(word)) && LAYOUT_DDL.test(text);

const SENDERS: ReadonlySet<string> = new Set([...SQL_METHODS, ...STATEMENT_METHODS]);

/** The SQL a call sends: its first argument, or the `query` of the object it is given (`exec({ query })`). */
function sentSql(call: Call): Node | undefined {
  const [first] = call.arguments;
  if (!first || first.type === 'SpreadElement') return undefined;
  const value = unwrapExpression(first);
  if (value.type !== 'ObjectExpression') return first;
  const query = value.properties.find((p): p is TSESTree.Property => p.type === 'Property' && propertyKeyName(p) === 'query');
  return query?.value;
}

/** An initialiser's name, not a migrator's bookkeeping (`ensureMigrationsTable`: its runner is reported where it is called). */
const isInitialiserName = (name: string | undefined): boolean => name !== undefined && INITIALISER_NAME.test(name) && !/migrat/i.test(name);

/** The function a module-level statement declares under an initialiser's name (`function initStore()`, `export const setupTables = async () => …`). */
function initialiserOf(statement: TSESTree.ProgramStatement): FunctionNode | undefined {
  const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
  if (declaration?.type === 'FunctionDeclaration') return isInitialiserName(declaration.id?.name) ? declaration : undefined;
  if (declaration?.type !== 'VariableDeclaration' || declaration.declarations.length !== 1) return undefined;
  const [declarator] = declaration.declarations;
  const init = declarator?.init && unwrapExpression(declarator.init);
  return declarator?.id.type === 'Identifier' && isInitialiserName(declarator.id.name) && isFunction(init) ? init : undefined;
}

/** Whether an import loads its module's values (`import { Pool } from 'pg'`, not `import type { ClientBase } from 'pg'`). */
const isValueImport = (d: TSESTree.ImportDeclaration): boolean =>
  d.importKind !== 'type' &&
  (d.specifiers.length === 0 || d.specifiers.some((x) => x.type !== 'ImportSpecifier' || x.importKind !== 'type'));

/** Whether the module loads a server driver: imports or requires one for its values (a type imported alone loads nothing). */
function loadsServerDriver(program: TSESTree.Program, modules: ReadonlySet<string>): boolean {
  return SERVER_DRIVER_MODULES.some((module) => {
    if (!modules.has(module)) return false;
    const imports = program.body.filter(
      (s): s is TSESTree.ImportDeclaration => s.type === 'ImportDeclaration' && s.source.value === module,
    );
    return imports.length === 0 || imports.some(isValueImport);
  });
}

/** Whether a receiver is built here by a class or factory named for a database server (`const store = new PostgresPool()`). */
function builtForServer(receiver: Node, sourceCode: SourceCode): boolean {
  const root = unwrapExpression(receiver);
  if (root.type !== 'Identifier') return false;
  const def = scopeVariable(sourceCode, root)?.defs[0]?.node;
  const init = def?.type === 'VariableDeclarator' && def.init ? unwrapExpression(def.init) : undefined;
  if (init?.type !== 'NewExpression' && init?.type !== 'CallExpression') return false;
  return SERVER_ENGINE_NAME.test(calleeName(init as Call) ?? '');
}

/** The calls under `root` (not in a nested function or class) that send layout DDL through a client of a database server. */
function* layoutDdlCalls(root: Node, sourceCode: SourceCode, driver: boolean): Generator<Call> {
  for (const node of descendants(root, sourceCode.visitorKeys, isScope)) {
    if (node.type !== 'CallExpression') continue;
    const callee = unwrapExpression(node.callee);
    if (callee.type !== 'MemberExpression' || !SENDERS.has(memberPropertyName(callee) ?? '')) continue;
    const sql = sentSql(node);
    if (!sql || !isDdlText(sql, sourceCode, LAYOUT_DDL)) continue;
    if ((driver || builtForServer(callee.object, sourceCode)) && !receiverIsEmbedded(callee.object, sourceCode)) yield node;
  }
}

/** The calls that send layout DDL as the module loads or from its initialisers, each with the name it is reported by. */
export function startDdlCalls(sourceCode: SourceCode): Map<Call, string> {
  const program = sourceCode.ast as TSESTree.Program;
  const modules = moduleSpecifiers(program);
  const out = new Map<Call, string>();
  if (EMBEDDED_CLIENT_MODULES.some((module) => modules.has(module))) return out;
  const driver = loadsServerDriver(program, modules);
  for (const statement of program.body) {
    const initialiser = initialiserOf(statement);
    if (!initialiser && statement.type === 'FunctionDeclaration') continue;
    for (const call of layoutDdlCalls(initialiser?.body ?? statement, sourceCode, driver)) {
      out.set(call, `${sourceCode.getText(call.callee)}()`);
    }
  }
  return out;
}
