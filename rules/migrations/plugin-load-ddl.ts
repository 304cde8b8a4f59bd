// Hand-written DDL a Fastify plugin sends as it loads: a model or database plugin whose function
// (`fp(async (app) => { await app.store.query(`CREATE TABLE IF NOT EXISTS …`); … })`, or the
// module's default export Fastify's autoload registers) runs at every replica's start, and sends
// the statement through a decoration of the instance — the project's own client or wrapper
// (`app.store.query(sql)`, `app.store.insert(sql)`), whatever its method is called. Only the
// plugin function's own statements load with it: the same call in a route handler or a helper the
// plugin defines runs when that is called. Not a shared schema: a decoration named for SQLite
// (`app.sqlite.exec(…)`), or a module that imports an embedded database's driver.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { moduleBindings } from '../../analysis/imports/module-bindings.js';
import { moduleSpecifiers } from '../../analysis/imports/imported-references.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { EMBEDDED_CLIENT_MODULES, EMBEDDED_MAKER_NAME } from '../../src/knowledge/embedded-databases.js';
import { FASTIFY_MODULE, INSTANCE_OWN_MEMBERS, PLUGIN_DDL_WORDS, PLUGIN_WRAPPER_MODULES } from '../../src/knowledge/fastify-plugins.js';
import { isDdlText } from './ddl-executions.js';
import { receiverIsEmbedded } from './embedded-database.js';

type Node = TSESTree.Node;
type FunctionNode = TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression | TSESTree.FunctionDeclaration;
type SourceCode = Readonly<TSESLint.SourceCode>;

const isFunction = (node: Node | null | undefined): node is FunctionNode =>
  node?.type === 'FunctionExpression' || node?.type === 'ArrowFunctionExpression' || node?.type === 'FunctionDeclaration';

/** Whether a file's text may hold DDL a plugin sends as it loads (a cheap test before any AST work). */
export const mayRunPluginDdl = (text: string): boolean => PLUGIN_DDL_WORDS.every((word) => word.test(text));

/** The function a plugin wrapper is given (`fp(fn, opts)`), or the function itself. */
function pluginFunctionOf(node: Node | null | undefined, wrappers: ReadonlySet<string>): FunctionNode | undefined {
  const value = node ? unwrapExpression(node) : undefined;
  if (isFunction(value)) return value;
  if (value?.type !== 'CallExpression') return undefined;
  const callee = unwrapExpression(value.callee);
  const fn = value.arguments[0] && unwrapExpression(value.arguments[0]);
  return callee.type === 'Identifier' && wrappers.has(callee.name) && isFunction(fn) ? fn : undefined;
}

/** The exported value of a statement: `export default …`, `module.exports = …`. */
function exportedValue(statement: TSESTree.ProgramStatement): Node | undefined {
  if (statement.type === 'ExportDefaultDeclaration') return statement.declaration;
  if (statement.type !== 'ExpressionStatement' || statement.expression.type !== 'AssignmentExpression') return undefined;
  const target = statement.expression.left;
  const named =
    target.type === 'MemberExpression' && target.object.type === 'Identifier' && target.object.name === 'module'
      ? memberPropertyName(target)
      : undefined;
  return named === 'exports' ? statement.expression.right : undefined;
}

/** The plugin functions of a Fastify module: its exported function, or one a plugin wrapper is given, taking the instance first. */
function pluginFunctions(program: TSESTree.Program): FunctionNode[] {
  const bindings = moduleBindings(program);
  const wrappers = new Set([...bindings].filter(([, module]) => PLUGIN_WRAPPER_MODULES.includes(module)).map(([name]) => name));
  const out: FunctionNode[] = [];
  for (const statement of program.body) {
    const fn = pluginFunctionOf(exportedValue(statement), wrappers);
    if (fn?.params[0]?.type === 'Identifier') out.push(fn);
  }
  return out;
}

/** Whether a callee is a method of a decoration of the instance (`app.store.query`, not `app.log.info`). */
function onDecoration(callee: Node, instance: string): boolean {
  if (callee.type !== 'MemberExpression') return false;
  const decoration = unwrapExpression(callee.object);
  if (decoration.type !== 'MemberExpression' || INSTANCE_OWN_MEMBERS.has(memberPropertyName(decoration) ?? '')) return false;
  const root = unwrapExpression(decoration.object);
  return root.type === 'Identifier' && root.name === instance;
}

/** The calls that send schema DDL through a decoration of the instance, among the plugin function's own statements. */
function loadDdlCalls(fn: FunctionNode, sourceCode: SourceCode): TSESTree.CallExpression[] {
  const instance = (fn.params[0] as TSESTree.Identifier).name;
  const out: TSESTree.CallExpression[] = [];
  for (const node of descendants(fn.body, sourceCode.visitorKeys, isFunction)) {
    if (node.type !== 'CallExpression' || !onDecoration(unwrapExpression(node.callee), instance)) continue;
    const [sql] = node.arguments;
    if (!sql || sql.type === 'SpreadElement' || !isDdlText(sql, sourceCode)) continue;
    const decoration = unwrapExpression((unwrapExpression(node.callee) as TSESTree.MemberExpression).object) as TSESTree.MemberExpression;
    if (!EMBEDDED_MAKER_NAME.test(memberPropertyName(decoration) ?? '') && !receiverIsEmbedded(decoration, sourceCode)) out.push(node);
  }
  return out;
}

/** The calls a Fastify module's plugin makes as it loads that send schema DDL to a shared database (see above). */
export function pluginLoadDdlCalls(sourceCode: SourceCode): TSESTree.CallExpression[] {
  const program = sourceCode.ast as TSESTree.Program;
  const modules = [...moduleSpecifiers(program)];
  if (!modules.some((module) => FASTIFY_MODULE.test(module)) || modules.some((module) => EMBEDDED_CLIENT_MODULES.includes(module)))
    return [];
  return pluginFunctions(program).flatMap((fn) => loadDdlCalls(fn, sourceCode));
}
