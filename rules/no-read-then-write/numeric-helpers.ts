// A function of the same module that computes a number from the values it is handed — a refill or
// a decay (`refill(bucket.tokens, bucket.refilledAt, now)` returning `Math.min(cap, tokens +
// elapsed * rate)`): its result is computed from what it was given, as `Math.min(…)` in place is.
// Only a function declared at the module's top level (a `function` or a `const` arrow / function
// expression) whose every `return` does arithmetic (`-`, `*`, `/`, `%`, `**`, or a `Math.*` call):
// a helper that formats, trims or slugifies a value builds a string, and is not followed. A function
// of the module that hands back a field of the row it is given (`[reset, member.visitRun]`) is that field.
import type { TSESTree } from '@typescript-eslint/utils';
import { programOf } from '../../analysis/ast/program-of.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';

type Node = TSESTree.Node;
type FunctionNode = TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression;

const NUMERIC_OPERATORS: ReadonlySet<string> = new Set(['-', '*', '/', '%', '**']);
const answers = new WeakMap<FunctionNode, boolean>();

/**
 * The module's top-level functions by name, found once per program: for each name its first
 * top-level `function` or initialised `const` / `let` (`null` when that is not a function). Asked
 * of every plain call the taint engine looks at: a bundle has thousands of top-level statements.
 */
const moduleFunctions = new WeakMap<TSESTree.Program, ReadonlyMap<string, FunctionNode | null>>();
function functionsOfModule(program: TSESTree.Program): ReadonlyMap<string, FunctionNode | null> {
  let byName = moduleFunctions.get(program);
  if (byName) return byName;
  const found = new Map<string, FunctionNode | null>();
  for (const statement of program.body) {
    const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
    if (declaration?.type === 'FunctionDeclaration' && declaration.id) {
      if (!found.has(declaration.id.name)) found.set(declaration.id.name, declaration);
      continue;
    }
    if (declaration?.type !== 'VariableDeclaration') continue;
    for (const declarator of declaration.declarations) {
      const init = declarator.init && unwrapExpression(declarator.init);
      if (declarator.id.type !== 'Identifier' || !init || found.has(declarator.id.name)) continue;
      found.set(declarator.id.name, init.type === 'ArrowFunctionExpression' || init.type === 'FunctionExpression' ? init : null);
    }
  }
  byName = found;
  moduleFunctions.set(program, byName);
  return byName;
}

/** The top-level function of the module named `name`, if any (the first top-level declaration of the name decides). */
function moduleFunction(from: Node, name: string): FunctionNode | undefined {
  const program = programOf(from);
  return program ? (functionsOfModule(program).get(name) ?? undefined) : undefined;
}

/** The top-level function of the module a call by name with arguments reaches (`refill(…)`), if any. */
function calledModuleFunction(call: TSESTree.CallExpression): FunctionNode | undefined {
  const callee = unwrapExpression(call.callee);
  return callee.type === 'Identifier' && call.arguments.length > 0 ? moduleFunction(call, callee.name) : undefined;
}

/** Whether an expression does arithmetic at its top (through `(…)`, `a ? b : c`, `a ?? b`). */
function arithmetic(node: Node | null | undefined, depth = 0): boolean {
  if (!node || depth > 4) return false;
  const value = unwrapExpression(node);
  if (value.type === 'BinaryExpression')
    return (
      NUMERIC_OPERATORS.has(value.operator) ||
      (value.operator === '+' && depth < 4 && [value.left, value.right].some((side) => arithmetic(side, depth + 1)))
    );
  if (value.type === 'CallExpression') {
    const callee = unwrapExpression(value.callee);
    return callee.type === 'MemberExpression' && callee.object.type === 'Identifier' && callee.object.name === 'Math';
  }
  if (value.type === 'ConditionalExpression') return arithmetic(value.consequent, depth + 1) && arithmetic(value.alternate, depth + 1);
  if (value.type === 'LogicalExpression') return arithmetic(value.left, depth + 1) || arithmetic(value.right, depth + 1);
  return false;
}

/** The `return` arguments of a function's own body (not of functions nested in it). */
function returned(fn: FunctionNode): (Node | null)[] {
  if (fn.body.type !== 'BlockStatement') return [fn.body];
  const out: (Node | null)[] = [];
  const visit = (node: Node): void => {
    if (node.type === 'ReturnStatement') out.push(node.argument);
    if (node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression') return;
    for (const key of ['body', 'consequent', 'alternate', 'block', 'handler', 'finalizer', 'cases'] as const) {
      const child = (node as unknown as Record<string, Node | Node[] | null | undefined>)[key];
      if (Array.isArray(child)) child.forEach(visit);
      else if (child && typeof child === 'object' && 'type' in child) visit(child);
    }
  };
  fn.body.body.forEach(visit);
  return out;
}

/** Whether `call` calls a function of the module that computes a number from its arguments (a refill, a decay). */
export function callsNumericHelper(call: TSESTree.CallExpression): boolean {
  const fn = calledModuleFunction(call);
  if (!fn) return false;
  let answer = answers.get(fn);
  if (answer === undefined) {
    const values = returned(fn);
    answer = values.length > 0 && values.every((value) => arithmetic(value));
    answers.set(fn, answer);
  }
  return answer;
}

const fieldAnswers = new WeakMap<FunctionNode, { index: number; field: string } | null>();

/** `param.field` of one of `fn`'s parameters (also as an element of a returned tuple: `[reset, param.field]`), or null. */
function parameterField(fn: FunctionNode, node: Node | null): { index: number; field: string } | null {
  const value = node && unwrapExpression(node);
  if (value?.type === 'ArrayExpression') {
    const fields = value.elements.map((e) => (e && e.type !== 'SpreadElement' ? parameterField(fn, e) : null)).filter((f) => f !== null);
    return fields.length === 1 ? fields[0]! : null;
  }
  if (value?.type !== 'MemberExpression' || value.computed || value.property.type !== 'Identifier') return null;
  const object = unwrapExpression(value.object);
  const index = object.type === 'Identifier' ? fn.params.findIndex((p) => p.type === 'Identifier' && p.name === object.name) : -1;
  return index < 0 ? null : { index, field: value.property.name };
}

/**
 * A function of the module that hands back a field of the row it is given (`runOf(member)`
 * returning `member.visitRun`, or `[reset, member.visitRun]` in a tuple): the argument and the field,
 * when every `return` gives the same one; undefined otherwise.
 */
export function fieldReturnedBy(call: TSESTree.CallExpression): { argument: TSESTree.Node; field: string } | undefined {
  const fn = calledModuleFunction(call);
  if (!fn) return undefined;
  let answer = fieldAnswers.get(fn);
  if (answer === undefined) {
    const fields = returned(fn).map((value) => parameterField(fn, value));
    const first = fields[0] ?? null;
    answer = first && fields.every((f) => f?.index === first.index && f.field === first.field) ? first : null;
    fieldAnswers.set(fn, answer);
  }
  const argument = answer ? call.arguments[answer.index] : undefined;
  return answer && argument && argument.type !== 'SpreadElement' ? { argument, field: answer.field } : undefined;
}
