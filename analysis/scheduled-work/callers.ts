// Calls in the same class (or file) to a function: `this.startPruning()`, `start()`, and through a
// bound alias (`const tick = this.run.bind(this); tick()`). The file's calls are indexed by the
// name they call once, on the first question about the file, so that each question resolves only
// the few calls that name the function instead of every call of the file.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { memberPropertyName } from '../ast/property-names.js';
import { isValueWrapper, unwrapExpression } from '../ast/unwrapped-expression.js';
import { descendants } from '../sql/descendants.js';
import { lastFileCache } from '../source/last-file-cache.js';
import { classMemberKeyName, resolveWorkFunction, type FunctionLike } from './work-function.js';

interface CallIndex {
  /** Calls whose callee is a name (`start()`) or a member (`this.start()`, `x.start()`), by that name. */
  byName: Map<string, TSESTree.CallExpression[]>;
  /** Variables bound to `….bind(…)`: a call of one may reach any function. */
  boundAliases: Set<string>;
}

/** The expression `node` is the value of, through the wrappers `resolveWorkFunction` looks through. */
function wrapped(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  while (current.parent && isValueWrapper(current.parent)) current = current.parent;
  return current;
}

const calledName = (callee: TSESTree.Node): string | undefined => {
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type !== 'MemberExpression') return undefined;
  return callee.property.type === 'PrivateIdentifier' ? `#${callee.property.name}` : memberPropertyName(callee);
};

function boundAlias(call: TSESTree.CallExpression): string | undefined {
  if (memberPropertyName(unwrapExpression(call.callee)) !== 'bind') return undefined;
  const declarator = wrapped(call).parent;
  return declarator?.type === 'VariableDeclarator' && declarator.id.type === 'Identifier' ? declarator.id.name : undefined;
}

const callIndexOf = lastFileCache((sourceCode: SourceCode): CallIndex => {
  const index: CallIndex = { byName: new Map(), boundAliases: new Set() };
  for (const node of descendants(sourceCode.ast, sourceCode.visitorKeys)) {
    if (node.type !== 'CallExpression') continue;
    const name = calledName(node.callee);
    if (name !== undefined) {
      const calls = index.byName.get(name);
      if (calls) calls.push(node);
      else index.byName.set(name, [node]);
    }
    const alias = boundAlias(node);
    if (alias !== undefined) index.boundAliases.add(alias);
  }
  return index;
});

/** The names a call can reach `fn` by: its own, the variable it initialises, its class member's key. */
function namesOf(fn: FunctionLike): string[] {
  const names: string[] = [];
  if (fn.type !== 'ArrowFunctionExpression' && fn.id) names.push(fn.id.name);
  const holder = wrapped(fn).parent;
  if (holder?.type === 'VariableDeclarator' && holder.id.type === 'Identifier') names.push(holder.id.name);
  if ((holder?.type === 'MethodDefinition' || holder?.type === 'PropertyDefinition') && holder.value === fn) {
    const key = classMemberKeyName(holder);
    if (key !== undefined) names.push(key);
  }
  return names;
}

function ancestorClassBody(node: TSESTree.Node): TSESTree.ClassBody | undefined {
  for (let current = node.parent; current; current = current.parent) if (current.type === 'ClassBody') return current;
  return undefined;
}

/** Calls in the same class (or file) to the function `fn`, in source order (outer calls first). */
export function callersOf(sourceCode: SourceCode, fn: FunctionLike): TSESTree.CallExpression[] {
  const index = callIndexOf(sourceCode);
  const scope = ancestorClassBody(fn);
  const out: TSESTree.CallExpression[] = [];
  for (const name of new Set([...namesOf(fn), ...index.boundAliases])) {
    for (const call of index.byName.get(name) ?? []) {
      if (scope && (call.range[0] < scope.range[0] || call.range[1] > scope.range[1])) continue;
      if (resolveWorkFunction(sourceCode, call.callee)?.fn === fn) out.push(call);
    }
  }
  return out.sort((a, b) => a.range[0] - b.range[0] || b.range[1] - a.range[1]);
}

/** Whether code inside `region` calls `fn` (a call `callersOf` would list): a walk of the region alone, not the file. */
export function callsInside(sourceCode: SourceCode, fn: FunctionLike, region: TSESTree.Node): boolean {
  const scope = ancestorClassBody(fn);
  const names = namesOf(fn);
  for (const node of descendants(region, sourceCode.visitorKeys)) {
    if (node.type !== 'CallExpression') continue;
    const callee = node.callee;
    // A member reaches `fn` only by its own name (`this.start()`); a bare name also through a bound alias.
    if (callee.type === 'MemberExpression' ? !names.includes(calledName(callee) ?? '') : callee.type !== 'Identifier') continue;
    if (scope && (node.range[0] < scope.range[0] || node.range[1] > scope.range[1])) continue;
    if (resolveWorkFunction(sourceCode, callee)?.fn === fn) return true;
  }
  return false;
}
