// Resolves the expression handed to a scheduler to the function that does the work, inside the
// same file: inline functions, a function declaration or `const` by name, `this.method`,
// `this.method.bind(this)`, and a thin `() => this.method()` / `() => sweep()` wrapper.
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { memberPropertyName, propertyKeyName } from '../ast/property-names.js';
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { scopeVariable } from '../ast/scope-variable.js';

export type FunctionLike = TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression;

export interface ResolvedWork {
  /** The function to guard; undefined when the work is defined elsewhere (an import). */
  fn: FunctionLike | undefined;
  /** The name it goes by (function, variable, method), for the job name. */
  name: string | undefined;
  /** The class member, when the work is a method (`async` goes before its key). */
  member?: TSESTree.MethodDefinition | TSESTree.PropertyDefinition;
  /** A call wrapping the work, e.g. `perReplica(fn)` — the caller decides what it means. */
  wrapper?: TSESTree.CallExpression;
}

export function isFunctionLike(node: TSESTree.Node | null | undefined): node is FunctionLike {
  return node?.type === 'FunctionDeclaration' || node?.type === 'FunctionExpression' || node?.type === 'ArrowFunctionExpression';
}

/** `sweep` of `this.sweep`, `this['sweep']`, `this.#sweep` (private names keep their `#`). */
function memberName(node: TSESTree.MemberExpression): string | undefined {
  return node.property.type === 'PrivateIdentifier' ? `#${node.property.name}` : memberPropertyName(node);
}

/** The name of a class member as written (`sweep`, `'sweep'`, `#sweep`). */
export function classMemberKeyName(member: TSESTree.MethodDefinition | TSESTree.PropertyDefinition): string | undefined {
  if (member.key.type === 'PrivateIdentifier') return `#${member.key.name}`;
  return propertyKeyName(member as unknown as TSESTree.Property);
}

/** The class whose `this` an expression at `node` sees (through arrows and methods only). */
function enclosingClassBody(node: TSESTree.Node): TSESTree.ClassBody | undefined {
  let current: TSESTree.Node | undefined = node.parent;
  while (current) {
    if (current.type === 'ClassBody') return current;
    if (current.type === 'FunctionExpression' || current.type === 'FunctionDeclaration') {
      const parent = current.parent;
      if (parent?.type !== 'MethodDefinition' && parent?.type !== 'PropertyDefinition') return undefined;
    }
    current = current.parent;
  }
  return undefined;
}

/** The method (or arrow-valued property) `name` of the class around `node`. */
export function classMember(node: TSESTree.Node, name: string): ResolvedWork | undefined {
  const body = enclosingClassBody(node);
  if (!body) return undefined;
  for (const member of body.body) {
    if (member.type !== 'MethodDefinition' && member.type !== 'PropertyDefinition') continue;
    if (member.static || classMemberKeyName(member) !== name) continue;
    if (member.type === 'MethodDefinition' && member.kind === 'method')
      return { fn: member.value as TSESTree.FunctionExpression, name, member };
    if (member.type === 'PropertyDefinition' && isFunctionLike(member.value)) return { fn: member.value, name, member };
  }
  return undefined;
}

/** `this.sweep()`, `this.#sweep()`: the method of the enclosing class a call runs. */
export function ownMethodCalled(call: TSESTree.CallExpression): FunctionLike | undefined {
  const callee = methodCalledThroughThis(call) ?? call.callee;
  if (callee.type !== 'MemberExpression' || callee.object.type !== 'ThisExpression' || callee.computed) return undefined;
  const name = memberName(callee);
  return name === undefined ? undefined : classMember(callee, name)?.fn;
}

/** `this.check.call(this, …)`, `this.check.apply(this, args)`: the method, run on this instance. */
function methodCalledThroughThis(call: TSESTree.CallExpression): TSESTree.MemberExpression | undefined {
  const callee = call.callee;
  if (callee.type !== 'MemberExpression' || call.arguments[0]?.type !== 'ThisExpression') return undefined;
  const invoker = memberPropertyName(callee);
  return (invoker === 'call' || invoker === 'apply') && callee.object.type === 'MemberExpression' ? callee.object : undefined;
}

/** The class a `const` of this file holds an instance of: `const limiter = new RateLimiter()` with `class RateLimiter` here. */
function instanceClassOf(sourceCode: SourceCode, identifier: TSESTree.Identifier): TSESTree.ClassBody | undefined {
  const variable = scopeVariable(sourceCode, identifier);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  const declarator = def?.node as TSESTree.Node | undefined;
  if (def?.type !== 'Variable' || declarator?.type !== 'VariableDeclarator' || !declarator.init) return undefined;
  if (declarator.parent?.type !== 'VariableDeclaration' || declarator.parent.kind !== 'const') return undefined;
  const created = unwrapExpression(declarator.init);
  if (created.type !== 'NewExpression' || created.callee.type !== 'Identifier') return undefined;
  const classVariable = scopeVariable(sourceCode, created.callee);
  const classDef = classVariable?.defs.length === 1 ? (classVariable.defs[0]?.node as TSESTree.Node | undefined) : undefined;
  return classDef?.type === 'ClassDeclaration' ? classDef.body : undefined;
}

/**
 * `limiter.cleanup()` on `const limiter = new RateLimiter()` of a class declared in this file:
 * the method it runs (a module's singleton, scheduled where it is made).
 */
export function instanceMethodCalled(sourceCode: SourceCode, call: TSESTree.CallExpression): FunctionLike | undefined {
  const callee = call.callee;
  if (callee.type !== 'MemberExpression' || callee.object.type !== 'Identifier' || callee.computed) return undefined;
  const name = memberName(callee);
  const body = name === undefined ? undefined : instanceClassOf(sourceCode, callee.object);
  for (const member of body?.body ?? []) {
    if ((member.type !== 'MethodDefinition' && member.type !== 'PropertyDefinition') || member.static) continue;
    if (classMemberKeyName(member) !== name) continue;
    const value = member.type === 'MethodDefinition' && member.kind !== 'method' ? undefined : member.value;
    return isFunctionLike(value) ? value : undefined;
  }
  return undefined;
}

/** The same-file definition an identifier refers to. */
export function identifierDefinition(sourceCode: SourceCode, identifier: TSESTree.Identifier): ResolvedWork | undefined {
  const variable = scopeVariable(sourceCode, identifier);
  if (!variable) return undefined;
  const def = variable.defs[0];
  if (!def || variable.defs.length !== 1) return undefined;
  const name = identifier.name;
  const defNode = def.node as TSESTree.Node;
  if (def.type === 'FunctionName' && isFunctionLike(defNode)) return { fn: defNode, name };
  if (def.type === 'Variable' && defNode.type === 'VariableDeclarator' && defNode.id.type === 'Identifier' && defNode.init) {
    // A `let` that is reassigned may point elsewhere by the time the timer fires.
    if (
      defNode.parent?.type === 'VariableDeclaration' &&
      defNode.parent.kind !== 'const' &&
      variable.references.some((r) => r.isWrite() && !r.init)
    ) {
      return undefined;
    }
    const init = unwrapExpression(defNode.init);
    if (isFunctionLike(init)) return { fn: init, name };
    if (init.type === 'CallExpression') {
      const bound = boundTarget(sourceCode, init);
      if (bound) return { ...bound, name: bound.name ?? name };
      return { fn: undefined, name, wrapper: init };
    }
  }
  return undefined;
}

/** `x.bind(this)` → what `x` resolves to. */
function boundTarget(sourceCode: SourceCode, call: TSESTree.CallExpression): ResolvedWork | undefined {
  const callee = unwrapExpression(call.callee);
  if (callee.type === 'MemberExpression' && memberName(callee) === 'bind')
    return resolveReference(sourceCode, unwrapExpression(callee.object));
  return undefined;
}

/** A name (`sweep`, `this.sweep`, `this.sweep.bind(this)`) resolved to its definition. */
function resolveReference(sourceCode: SourceCode, node: TSESTree.Node): ResolvedWork | undefined {
  if (node.type === 'Identifier') return identifierDefinition(sourceCode, node);
  if (node.type === 'MemberExpression' && node.object.type === 'ThisExpression') {
    const name = memberName(node);
    return name === undefined ? undefined : classMember(node, name);
  }
  if (node.type === 'CallExpression') return boundTarget(sourceCode, node);
  return undefined;
}

/** The only call a thin wrapper makes: `() => this.sweep()`, `async () => { await sweep(); }`. */
function soleCall(fn: FunctionLike): TSESTree.CallExpression | undefined {
  let expression: TSESTree.Node | null | undefined;
  if (fn.body.type !== 'BlockStatement') expression = fn.body;
  else if (fn.body.body.length === 1) {
    const statement = fn.body.body[0]!;
    if (statement.type === 'ExpressionStatement') expression = statement.expression;
    else if (statement.type === 'ReturnStatement') expression = statement.argument;
  }
  if (!expression) return undefined;
  let current = unwrapExpression(expression);
  if (current.type === 'AwaitExpression' || (current.type === 'UnaryExpression' && current.operator === 'void'))
    current = unwrapExpression(current.argument);
  return current.type === 'CallExpression' ? current : undefined;
}

/**
 * The work function behind `expression`. Undefined when the expression is not a function or a
 * name at all (a literal, an object). A name defined in another file gives `{ fn: undefined }`.
 */
export function resolveWorkFunction(sourceCode: SourceCode, expression: TSESTree.Node): ResolvedWork | undefined {
  const node = unwrapExpression(expression);
  if (isFunctionLike(node)) {
    const call = soleCall(node);
    if (call && call.arguments.length === 0) {
      const target = resolveReference(sourceCode, unwrapExpression(call.callee));
      if (target?.fn) return target;
    }
    const name = node.type !== 'ArrowFunctionExpression' && node.id ? node.id.name : undefined;
    return { fn: node, name };
  }
  if (node.type === 'Identifier') return identifierDefinition(sourceCode, node) ?? { fn: undefined, name: node.name };
  if (node.type === 'MemberExpression') {
    const resolved = resolveReference(sourceCode, node);
    return resolved ?? { fn: undefined, name: memberName(node) };
  }
  if (node.type === 'CallExpression') {
    const bound = boundTarget(sourceCode, node);
    if (bound) return bound;
    return { fn: undefined, name: undefined, wrapper: node };
  }
  return undefined;
}
