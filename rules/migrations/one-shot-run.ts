// A command run once: a file whose own statements end the process (a migrate script, a container's
// set-up step run before the server), told from its top-level statements alone.
import type { TSESTree } from '@typescript-eslint/utils';
import { isProcessGlobal } from '../../analysis/ast/process-env.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { SERVER_START } from '../../src/knowledge/file-conventions.js';

/** `process.exit(…)`, also as the last link of `main().then(() => process.exit(0))`. */
function exitsProcess(node: TSESTree.Node): boolean {
  const value = unwrapExpression(node, { await: true });
  if (value.type !== 'CallExpression') return false;
  const callee = unwrapExpression(value.callee);
  if (callee.type !== 'MemberExpression') return false;
  const object = unwrapExpression(callee.object);
  const method = memberPropertyName(callee);
  if (method === 'exit' && isProcessGlobal(object)) return true;
  // `main().then(() => process.exit()).catch(fail)`: the run's own exit sits before the handler.
  if (method === 'catch') return exitsProcess(object);
  if (method !== 'then' && method !== 'finally') return false;
  const handler = value.arguments[0];
  const body = handler && (handler.type === 'ArrowFunctionExpression' || handler.type === 'FunctionExpression') ? handler.body : undefined;
  if (body?.type === 'BlockStatement') return body.body.some(exitsInStatement);
  return body !== undefined && exitsProcess(body);
}

/** A handler's statement that exits: `process.exit(0);`, or an `if` both of whose branches do (`if (ok) process.exit(0); else process.exit(1);`). */
function exitsInStatement(statement: TSESTree.Statement): boolean {
  if (statement.type === 'ExpressionStatement') return exitsProcess(statement.expression);
  return (
    statement.type === 'IfStatement' &&
    statement.alternate !== null &&
    branchStatements(statement.consequent).some(exitsInStatement) &&
    branchStatements(statement.alternate).some(exitsInStatement)
  );
}

/** Methods that close a database client (`knex.destroy()`, `pool.end()`, `sequelize.close()`, `prisma.$disconnect()`, `mongoose.disconnect()`). */
const CLOSE_METHODS: ReadonlySet<string> = new Set(['destroy', 'end', 'close', '$disconnect', 'disconnect']);

/** `await knex.destroy()`, `pool.end()`: the run closes the client it worked on, so nothing keeps the process alive. */
function closesClient(node: TSESTree.Node): boolean {
  const value = unwrapExpression(node, { await: true });
  if (value.type !== 'CallExpression') return false;
  const callee = unwrapExpression(value.callee);
  return callee.type === 'MemberExpression' && CLOSE_METHODS.has(memberPropertyName(callee) ?? '');
}

/**
 * `migrate(db, …).catch(log).finally(() => sql.end())` as a statement of the file: the chain's last
 * handler closes the client the run used, so the process ends when the run does.
 */
function closesInChain(node: TSESTree.Node): boolean {
  const value = unwrapExpression(node, { await: true });
  if (value.type !== 'CallExpression') return false;
  const callee = unwrapExpression(value.callee);
  if (callee.type !== 'MemberExpression' || !['then', 'finally'].includes(memberPropertyName(callee) ?? '')) return false;
  const handler = value.arguments[0];
  const body = handler && (handler.type === 'ArrowFunctionExpression' || handler.type === 'FunctionExpression') ? handler.body : undefined;
  if (body?.type === 'BlockStatement') return body.body.some((s) => s.type === 'ExpressionStatement' && closesClient(s.expression));
  return body !== undefined && closesClient(body);
}

/** The statements of a branch: a block's, or the one statement itself. */
const branchStatements = (statement: TSESTree.Statement): readonly TSESTree.Statement[] =>
  statement.type === 'BlockStatement' ? statement.body : [statement];

/**
 * Whether a statement of a run's own body ends the run: `process.exit(…)`, a close of its client,
 * a `try` whose `finally` does either (`try { await knex.migrate.latest(); } finally { knex.destroy(); }`)
 * or whose block does (`try { …; process.exit(0); } catch (e) { …; process.exit(1); }`: its `catch`
 * alone would not), or an `if` both of whose branches do (`if (done) process.exit(0); else process.exit(1);`).
 */
function endsRun(statement: TSESTree.Statement): boolean {
  if (statement.type === 'ExpressionStatement') return exitsProcess(statement.expression) || closesClient(statement.expression);
  if (statement.type === 'IfStatement')
    return (
      statement.alternate !== null &&
      branchStatements(statement.consequent).some(endsRun) &&
      branchStatements(statement.alternate).some(endsRun)
    );
  if (statement.type !== 'TryStatement') return false;
  return (statement.finalizer !== null && statement.finalizer.body.some(endsRun)) || statement.block.body.some(endsRun);
}

/** The call a top-level statement starts with: `main()` in `main();`, `await main();`, `void main();`, `main().catch(…)`, `(async () => {…})()`. */
export function startedCall(expression: TSESTree.Expression): TSESTree.CallExpression | undefined {
  let value: TSESTree.Node = unwrapExpression(expression, { await: true });
  if (value.type === 'UnaryExpression' && value.operator === 'void') value = unwrapExpression(value.argument, { await: true });
  while (value.type === 'CallExpression') {
    const callee = unwrapExpression(value.callee);
    if (callee.type !== 'MemberExpression' || !['then', 'catch', 'finally'].includes(memberPropertyName(callee) ?? '')) return value;
    value = unwrapExpression(callee.object, { await: true });
  }
  return undefined;
}

/** The bodies of the functions declared at a program's top level, by name: a `function` (also the default export's, `export default function sync()`), or a `const` arrow or function. */
export function topLevelFunctionBodies(program: TSESTree.Program): Map<string, TSESTree.Node> {
  const bodies = new Map<string, TSESTree.Node>();
  for (const statement of program.body) {
    const exported = statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration';
    const declaration = exported ? statement.declaration : statement;
    if (declaration?.type === 'FunctionDeclaration' && declaration.id && !bodies.has(declaration.id.name)) {
      bodies.set(declaration.id.name, declaration.body);
    }
    if (declaration?.type !== 'VariableDeclaration' || declaration.kind !== 'const') continue;
    for (const declarator of declaration.declarations) {
      const init = declarator.init && unwrapExpression(declarator.init);
      if (declarator.id.type !== 'Identifier' || bodies.has(declarator.id.name)) continue;
      if (init?.type === 'ArrowFunctionExpression' || init?.type === 'FunctionExpression') bodies.set(declarator.id.name, init.body);
    }
  }
  return bodies;
}

/**
 * The body of the function a call of this file's top level runs: the IIFE itself, or a function
 * declared at the top level (`bodies`, built once per file and only when a call names one).
 */
export function startedBody(call: TSESTree.CallExpression, bodies: () => Map<string, TSESTree.Node>): TSESTree.Node | undefined {
  const callee = unwrapExpression(call.callee);
  if (callee.type === 'ArrowFunctionExpression' || callee.type === 'FunctionExpression') return callee.body;
  return callee.type === 'Identifier' ? bodies().get(callee.name) : undefined;
}

/**
 * Whether a top-level statement starts the file's one run, which ends the process when it is done:
 * `init()` (or `main().catch(…)`, an async IIFE) whose function ends in `process.exit(…)` or closes
 * its database client as a statement of its own body or of its `finally`, not of a handler or a
 * branch (`await knex.migrate.latest(); …; process.exit(0);`, `try { … } finally { knex.destroy(); }`).
 * A `process.exit(1)` only in a `catch` is how servers fail at start-up too.
 */
function startsRunThatExits(statement: TSESTree.Statement, bodies: () => Map<string, TSESTree.Node>): boolean {
  if (statement.type !== 'ExpressionStatement') return false;
  const call = startedCall(statement.expression);
  const body = call && startedBody(call, bodies);
  return body?.type === 'BlockStatement' && body.body.some(endsRun);
}

/**
 * Whether a statement of a function's body ends the process once the run before it succeeded: `process.exit(0)` (or
 * `process.exit()`) as a statement of its own, of a `try` block, or of both branches of an `if`. A close of the client
 * does not count here: a server's start may close a client it opened for one step.
 */
export function endsRunOnSuccess(statement: TSESTree.Statement): boolean {
  if (statement.type === 'ExpressionStatement') return exitsProcess(statement.expression) && !exitsWithFailure(statement.expression);
  if (statement.type === 'IfStatement')
    return (
      statement.alternate !== null &&
      branchStatements(statement.consequent).some(endsRunOnSuccess) &&
      branchStatements(statement.alternate).some(endsRunOnSuccess)
    );
  return statement.type === 'TryStatement' && statement.block.body.some(endsRunOnSuccess);
}

/** A node-style callback's first parameter: the error the call ended with. */
const ERROR_PARAMETER = /^(?:e|err|error)$/i;
/** Methods whose callback runs on an event or a promise's outcome, not when one call is done (`.catch(fail)`, `server.on('error', …)`). */
const NOT_DONE_CALLBACKS: ReadonlySet<string> = new Set([
  'then',
  'catch',
  'finally',
  'on',
  'once',
  'addListener',
  'prependListener',
  'prependOnceListener',
]);

/** `process.exit(1)` (or another non-zero literal): how a failure ends a process, servers' included. */
function exitsWithFailure(node: TSESTree.Node): boolean {
  const call = unwrapExpression(node.type === 'ExpressionStatement' ? node.expression : node);
  const [code] = call.type === 'CallExpression' ? call.arguments : [];
  return code?.type === 'Literal' && code.value !== 0;
}

/**
 * Whether a top-level call hands a node-style callback (its first parameter the error, its last
 * argument) that ends the run when the call is done, as a statement of its own body and not only
 * with a failure code (`exec('npx sequelize-cli db:migrate', (error) => { …; process.exit(error ?
 * 1 : 0); })`): a script. Listeners and promise handlers (`server.on('error', (err) => …)`,
 * `.catch((err) => process.exit(1))`) are not.
 */
function callbackEndsRun(statement: TSESTree.Statement): boolean {
  const call = statement.type === 'ExpressionStatement' ? unwrapExpression(statement.expression, { await: true }) : undefined;
  if (call?.type !== 'CallExpression' || NOT_DONE_CALLBACKS.has(memberPropertyName(unwrapExpression(call.callee)) ?? '')) return false;
  const callback = call.arguments.at(-1);
  if (callback?.type !== 'ArrowFunctionExpression' && callback?.type !== 'FunctionExpression') return false;
  const [error] = callback.params;
  if (error?.type !== 'Identifier' || !ERROR_PARAMETER.test(error.name)) return false;
  if (callback.body.type !== 'BlockStatement') return exitsProcess(callback.body) && !exitsWithFailure(callback.body);
  return callback.body.body.some((s) => endsRun(s) && !exitsWithFailure(s));
}

/** An expression statement of a call: `run();`, `await run();`, `void run();`, `run().catch(…);` (through TypeScript's wrappers). */
function isCallStatement(statement: TSESTree.Node): statement is TSESTree.ExpressionStatement {
  if (statement.type !== 'ExpressionStatement') return false;
  let value = unwrapExpression(statement.expression, { await: true });
  if (value.type === 'UnaryExpression' && value.operator === 'void') value = unwrapExpression(value.argument, { await: true });
  return value.type === 'CallExpression';
}

/**
 * A file whose own statements end the process: a command run once (a migrate script, a container's
 * set-up step run before the server), not a server. Its statements exit, or it starts one run that
 * exits when done and starts no server itself (`serverStart`, asked of the text; none for a caller that has asked already).
 */
export function isOneShot(
  sourceCode: Readonly<{ text: string; ast: unknown }>,
  serverStart: RegExp | null = SERVER_START,
  guardedRuns = false,
): boolean {
  const program = sourceCode.ast as TSESTree.Program;
  // `try { await runScript(main); process.exit(0); } catch (e) { …; process.exit(1); }`: the run wrapped at the top level.
  // Only a statement that calls something can exit or start a run (every test below begins with a
  // call): a compiled module's thousands of assignments and declarations are passed over at once.
  const statements: TSESTree.ExpressionStatement[] = [];
  // With `guardedRuns`, the consequent of a top-level `if`: a main-module guard (`if (require.main === module)`, `if (startedDirectly())`).
  const guarded: TSESTree.ExpressionStatement[] = [];
  for (const statement of program.body) {
    if (isCallStatement(statement)) statements.push(statement);
    else if (statement.type === 'TryStatement') {
      for (const inner of statement.block.body) if (isCallStatement(inner)) statements.push(inner);
    } else if (guardedRuns && statement.type === 'IfStatement') {
      for (const inner of branchStatements(statement.consequent)) if (isCallStatement(inner)) guarded.push(inner);
    }
  }
  if (statements.some((statement) => exitsProcess(statement.expression))) return true;
  let bodies: Map<string, TSESTree.Node> | undefined;
  const bodiesOf = (): Map<string, TSESTree.Node> => (bodies ??= topLevelFunctionBodies(program));
  const endsRunHere = (statement: TSESTree.ProgramStatement): boolean =>
    startsRunThatExits(statement, bodiesOf) ||
    callbackEndsRun(statement) ||
    (statement.type === 'ExpressionStatement' && closesInChain(statement.expression));
  // Under a guard, a run whose chain exits when done (`run().then(() => process.exit(0))`), not a bare `process.exit(1)` (a server's check of its settings).
  const guardedRunEnds = (statement: TSESTree.ExpressionStatement): boolean =>
    endsRunHere(statement) || (!isProcessExitCall(statement.expression) && exitsProcess(statement.expression));
  return (statements.some(endsRunHere) || guarded.some(guardedRunEnds)) && !serverStart?.test(sourceCode.text);
}

/** `process.exit(…)` itself, not a chain that ends in it. */
function isProcessExitCall(node: TSESTree.Node): boolean {
  const value = unwrapExpression(node, { await: true });
  const callee = value.type === 'CallExpression' ? unwrapExpression(value.callee) : undefined;
  return callee?.type === 'MemberExpression' && memberPropertyName(callee) === 'exit' && isProcessGlobal(unwrapExpression(callee.object));
}
