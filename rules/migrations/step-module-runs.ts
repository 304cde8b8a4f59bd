// A hand-written schema updater that names no migrator: a loop that loads one module per pending
// version from an updates folder (`require(path.join(__dirname, `/updates/${version}`))`,
// `require(`./db/schema/v${version}`).Schema`) and runs it (`update(db, config, done)`,
// `await new Step().run(this)`). Each replica that runs the loop applies the same steps. Asked
// only of files the rule has admitted, and only where the text loads a module by a computed path.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { nodeAt } from '../../analysis/ast/node-at.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { calledName } from './list-runs.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { UPDATE_STEP_FOLDER, UPDATE_STEP_METHODS, VERSION_LOOP_CALLS } from '../../src/knowledge/migration-runs.js';
import { isLoopStatement } from '../../analysis/ast/loop-statement.js';

type SourceCode = Readonly<TSESLint.SourceCode>;
type Call = TSESTree.CallExpression;
type Node = TSESTree.Node;

const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/** Whether a load's path is computed (`` `./updates/${v}` ``, `dir + v`, `path.join(dir, v)`) — a literal names one module. */
function isComputedPath(path: Node): boolean {
  const value = unwrapExpression(path);
  if (value.type === 'TemplateLiteral') return value.expressions.length > 0;
  if (value.type === 'BinaryExpression') return true;
  if (value.type === 'CallExpression') return value.arguments.some((a) => a.type !== 'Literal' && isComputedPath(a));
  return value.type === 'Identifier' || value.type === 'MemberExpression';
}

/** The function whose body holds `node`, when a loop over versions stands between them (a loop statement, an `eachSeries` callback). */
function loopingFunction(node: Node): Node | undefined {
  let looped = false;
  for (let at = node.parent; at; at = at.parent) {
    if (isLoopStatement(at)) looped = true;
    if (!FUNCTIONS.has(at.type)) continue;
    const holder = at.parent;
    const callee = holder?.type === 'CallExpression' ? unwrapExpression(holder.callee) : undefined;
    const name = callee?.type === 'Identifier' ? callee.name : callee?.type === 'MemberExpression' ? memberPropertyName(callee) : undefined;
    if (name !== undefined && VERSION_LOOP_CALLS.test(name)) looped = true;
    else return looped ? at : undefined;
  }
  return undefined;
}

/** The variable a loaded value lands in: `const step = require(…)`, `step = require(…).Schema`, `const { up } = require(…)`. */
function loadedInto(load: Node, sourceCode: SourceCode): TSESLint.Scope.Variable | undefined {
  let value: Node = load;
  while (value.parent?.type === 'AwaitExpression' || (value.parent?.type === 'MemberExpression' && value.parent.object === value))
    value = value.parent;
  const parent = value.parent;
  if (parent?.type === 'VariableDeclarator' && parent.id.type === 'Identifier') return sourceCode.getDeclaredVariables(parent)[0];
  if (parent?.type !== 'AssignmentExpression' || parent.left.type !== 'Identifier') return undefined;
  return scopeVariable(sourceCode, parent.left);
}

/** The calls that run a loaded step: the value called (`step(db, done)`), or a step method of what `new` makes of it. */
function stepRuns(variable: TSESLint.Scope.Variable, sourceCode: SourceCode): Call[] {
  const runs: Call[] = [];
  for (const reference of variable.references) {
    const use = reference.identifier.parent as Node | undefined;
    if (use?.type === 'CallExpression' && use.callee === reference.identifier) runs.push(use);
    if (use?.type !== 'NewExpression' || use.callee !== reference.identifier) continue;
    // `const step = new Step()` (or assigned): its `run` / `up` / `apply`.
    let made: Node = use;
    while (made.parent?.type === 'TSAsExpression' || made.parent?.type === 'TSTypeAssertion') made = made.parent;
    const holder = made.parent;
    const target = holder?.type === 'VariableDeclarator' ? holder.id : holder?.type === 'AssignmentExpression' ? holder.left : undefined;
    const instance = target?.type === 'Identifier' ? scopeVariable(sourceCode, target) : undefined;
    for (const ref of instance?.references ?? []) {
      const member = ref.identifier.parent as Node | undefined;
      const call = member?.parent;
      if (
        member?.type === 'MemberExpression' &&
        member.object === ref.identifier &&
        call?.type === 'CallExpression' &&
        call.callee === member
      )
        if (UPDATE_STEP_METHODS.includes(memberPropertyName(member) ?? '')) runs.push(call);
    }
  }
  return runs;
}

/** Calls of `name` as the file's own function (`doUpdates()`, `this.applyUpdates()`), outside its body. */
function callsOf(name: string, fn: Node, sourceCode: SourceCode): Call[] {
  const calls: Call[] = [];
  const text = sourceCode.text;
  for (let at = text.indexOf(`${name}(`); at >= 0; at = text.indexOf(`${name}(`, at + name.length)) {
    if (at >= fn.range[0] && at < fn.range[1]) continue;
    const node = nodeAt(sourceCode, at);
    if (node?.type !== 'Identifier' || node.name !== name) continue;
    const callee = node.parent?.type === 'MemberExpression' && node.parent.property === node ? node.parent : node;
    const call = callee?.parent;
    if (call?.type !== 'CallExpression' || call.callee !== callee) continue;
    if (callee.type === 'Identifier' || (callee.type === 'MemberExpression' && unwrapExpression(callee.object).type === 'ThisExpression'))
      calls.push(call);
  }
  return calls;
}

/**
 * The runs of a versioned updater, with how each is shown: the calls of the function that holds
 * the loop where the file makes them (`await doUpdates()` in `initialize`), else the step runs in
 * the loop itself (`await schema.run(this)` in a method the service calls at start), added to `runs`.
 */
export function stepModuleRuns(sourceCode: SourceCode, runs: Map<Call, string>): Map<Call, string> {
  const text = sourceCode.text;
  for (const word of ['require(', 'import(']) {
    for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + word.length)) {
      const node = nodeAt(sourceCode, at);
      const load = node?.type === 'Identifier' ? node.parent : node;
      const path = load?.type === 'ImportExpression' ? load.source : load?.type === 'CallExpression' ? load.arguments[0] : undefined;
      if (!load || !path || !isComputedPath(path) || !UPDATE_STEP_FOLDER.test(sourceCode.getText(path))) continue;
      const fn = loopingFunction(load);
      const variable = fn && loadedInto(load, sourceCode);
      const steps = variable ? stepRuns(variable, sourceCode) : [];
      if (!fn || steps.length === 0) continue;
      const name = calledName(fn);
      const callers = name === undefined ? [] : callsOf(name, fn, sourceCode);
      for (const call of callers) runs.set(call, `${name}() (each update module)`);
      if (callers.length === 0) for (const call of steps) runs.set(call, `${sourceCode.getText(call.callee)}() (each update module)`);
    }
  }
  return runs;
}
