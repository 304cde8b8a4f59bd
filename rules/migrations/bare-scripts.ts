// A file that is nothing but its schema write: it exports nothing, and its statements load modules
// and run call chains given handlers that only log or exit (`const db = require('./models');
// db.sequelize.sync({ alter: true }).then(() => console.log('synced')).catch(console.error);`).
// No module can require it for a value and it starts nothing else: a script someone runs (`node
// db.js`), not a part of the server. A handler may also be the run's next step
// (`sequelize.authenticate().then(() => sequelize.sync({ alter: true })).then(log)`). A file whose handler goes on to start the server
// (`.then(() => app.listen(port))`), or that exports anything, is not one.
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { requiredSpecifier } from '../../analysis/imports/module-bindings.js';
import { namesMigratorVerb } from '../../src/knowledge/migrator-methods.js';
import { importsStartingModule } from './started-imports.js';

/** Methods of a promise whose handlers a chain is given. */
const CHAIN_METHODS: ReadonlySet<string> = new Set(['then', 'catch', 'finally']);

/** `console.log`, `process.exit`: a report of the outcome or the end of the run, nothing more. */
function isReportOrExit(callee: TSESTree.Node): boolean {
  const value = unwrapExpression(callee);
  if (value.type !== 'MemberExpression') return false;
  const object = unwrapExpression(value.object);
  return object.type === 'Identifier' && (object.name === 'console' || (object.name === 'process' && memberPropertyName(value) === 'exit'));
}

/** What a handler's statement calls: `f()` of `f();` or `return f();`, or the arrow's body itself. */
function statementCall(statement: TSESTree.Node): TSESTree.Node {
  const expression =
    statement.type === 'ExpressionStatement' ? statement.expression : statement.type === 'ReturnStatement' ? statement.argument : statement;
  return expression ? unwrapExpression(expression, { await: true }) : statement;
}

/** The statements of a handler given to a chain (an arrow's expression body counts as one), or undefined for anything but a function. */
function handlerStatements(handler: TSESTree.Node): TSESTree.Node[] | undefined {
  const value = unwrapExpression(handler);
  if (value.type !== 'ArrowFunctionExpression' && value.type !== 'FunctionExpression') return undefined;
  return value.body.type === 'BlockStatement' ? value.body.body : [value.body];
}

/** Whether a chain's handler only reports or exits: `console.error`, `(e) => console.log(e)`, `() => { console.log('ok'); process.exit(0); }`. */
function onlyReports(handler: TSESTree.Node): boolean {
  const value = unwrapExpression(handler);
  if (value.type === 'MemberExpression') return isReportOrExit(value);
  return (
    handlerStatements(value)?.every((statement) => {
      const call = statementCall(statement);
      return call.type === 'CallExpression' && isReportOrExit(call.callee);
    }) ?? false
  );
}

/** Methods of a database client a script's chain goes on with after connecting: the schema sync, the connection itself. */
const RUN_STEP_METHODS: ReadonlySet<string> = new Set(['sync', 'authenticate', 'connect', 'initialize']);

/**
 * Whether a chain's handler is the next step of the run (`() => sequelize.sync({ alter: true })`,
 * `() => { return db.sync(); }` after `sequelize.authenticate()`): one call of a client's connect
 * or sync (`RUN_STEP_METHODS`), or of a migrator's verb, given values and no callback.
 */
function runsNextStep(handler: TSESTree.Node): boolean {
  const statements = handlerStatements(handler);
  if (statements?.length !== 1) return false;
  const call = statementCall(statements[0]!);
  if (call.type !== 'CallExpression' || call.arguments.some((a) => a.type === 'ArrowFunctionExpression' || a.type === 'FunctionExpression'))
    return false;
  const callee = unwrapExpression(call.callee);
  const method = callee.type === 'MemberExpression' ? memberPropertyName(callee) : undefined;
  return method !== undefined && (RUN_STEP_METHODS.has(method) || namesMigratorVerb(method));
}

/**
 * Whether a top-level statement is a call chain given handlers that only report or exit
 * (`x.sync().then(log).catch(log)`): a run that reports its own outcome, as a script does. A bare
 * call (`await knex.migrate.latest();`) says nothing of who runs the file.
 */
function isReportedRun(statement: TSESTree.ProgramStatement): boolean {
  if (statement.type !== 'ExpressionStatement') return false;
  let value = unwrapExpression(statement.expression, { await: true });
  let handled = false;
  while (value.type === 'CallExpression') {
    const callee = unwrapExpression(value.callee);
    // The run itself: a method called with values (`sequelize.sync({ alter: true })`), no callback a timer or a listener would keep.
    if (callee.type !== 'MemberExpression') return false;
    if (!CHAIN_METHODS.has(memberPropertyName(callee) ?? ''))
      return handled && !value.arguments.some((a) => a.type === 'ArrowFunctionExpression' || a.type === 'FunctionExpression');
    if (value.arguments.length === 0 || !value.arguments.every((a) => onlyReports(a) || runsNextStep(a))) return false;
    handled = true;
    value = unwrapExpression(callee.object, { await: true });
  }
  return false;
}

/** Whether a top-level statement only loads modules: an import, `const x = require('m')`, `'use strict'`, `require('dotenv').config()`. */
export function onlyLoads(statement: TSESTree.ProgramStatement): boolean {
  // `import './server.js'` starts what that module starts (started-imports.ts).
  if (statement.type === 'ImportDeclaration') return !importsStartingModule(statement);
  if (statement.type === 'VariableDeclaration') return onlyLoadsDeclared(statement);
  if (statement.type !== 'ExpressionStatement') return false;
  if (statement.directive !== undefined) return true;
  // `require('dotenv').config();`
  const call = unwrapExpression(statement.expression);
  if (call.type !== 'CallExpression' || call.callee.type !== 'MemberExpression') return false;
  return call.callee.object.type === 'CallExpression' && requiredSpecifier(call.callee.object) !== undefined;
}

/** Whether a top-level statement is a declaration that only loads modules. */
function onlyLoadsDeclared(statement: TSESTree.ProgramStatement): boolean {
  return statement.type === 'VariableDeclaration' && statement.declarations.every((d) => requiredSpecifier(d.init) !== undefined);
}

/** Whether the file is only its schema write (see the file's head). */
export function isBareSchemaScript(program: TSESTree.Program): boolean {
  let runs = 0;
  for (const statement of program.body) {
    if (onlyLoads(statement)) continue;
    if (!isReportedRun(statement)) return false;
    runs++;
  }
  return runs > 0;
}
