// Calls in the same class (or file) to a function: `this.startPruning()`, `start()`, and through a
// bound alias (`const tick = this.run.bind(this); tick()`). A call has to write the name it calls,
// so the calls are found from where the function's names are written in the text — a few
// `indexOf`s and a walk down to each place — rather than by indexing every call of the file:
// asked only about work that is reported, of files that are often big bundles.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { memberPropertyName } from '../ast/property-names.js';
import { nodeAt } from '../ast/node-at.js';
import { isValueWrapper, unwrapExpression } from '../ast/unwrapped-expression.js';
import { descendants } from '../sql/descendants.js';
import { lastFileCache } from '../source/last-file-cache.js';
import { classMemberKeyName, resolveWorkFunction, type FunctionLike } from './work-function.js';

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

/** Where `text` holds `word` (`#start` for a private name), in order. */
function offsetsOf(text: string, word: string): number[] {
  const offsets: number[] = [];
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) offsets.push(at);
  return offsets;
}

/**
 * The call whose callee names `name` at `node`, the node written there: `start()`, `this.start()`,
 * `this['start']()`, `this.#start()` — the callee as it is, as `calledName` reads it.
 */
function callNamedAt(node: TSESTree.Node | null, name: string): TSESTree.CallExpression | undefined {
  const named = node?.type === 'TemplateElement' ? node.parent : node;
  const parent = named?.parent;
  if (!named || !parent) return undefined;
  const callee = parent.type === 'MemberExpression' && parent.property === named ? parent : named;
  const call = callee.parent;
  return call?.type === 'CallExpression' && call.callee === callee && calledName(callee) === name ? call : undefined;
}

/** The calls of the file that call `name` (`calledName`), in source order. */
function callsNamed(sourceCode: SourceCode, name: string): TSESTree.CallExpression[] {
  const calls: TSESTree.CallExpression[] = [];
  for (const at of offsetsOf(sourceCode.text, name)) {
    const call = callNamedAt(nodeAt(sourceCode, at), name);
    if (call) calls.push(call);
  }
  return calls;
}

/** Variables bound to `….bind(…)` in the file: a call of one may reach any function. */
const boundAliasesOf = lastFileCache((sourceCode: SourceCode): Set<string> => {
  const aliases = new Set<string>();
  for (const at of offsetsOf(sourceCode.text, 'bind')) {
    const node = nodeAt(sourceCode, at);
    const named = node?.type === 'TemplateElement' ? node.parent : node;
    const member = named?.parent;
    if (member?.type !== 'MemberExpression' || member.property !== named) continue;
    const call = wrapped(member).parent;
    const alias = call?.type === 'CallExpression' && call.callee === wrapped(member) ? boundAlias(call) : undefined;
    if (alias !== undefined) aliases.add(alias);
  }
  return aliases;
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
  const scope = ancestorClassBody(fn);
  const out: TSESTree.CallExpression[] = [];
  for (const name of new Set([...namesOf(fn), ...boundAliasesOf(sourceCode)])) {
    for (const call of callsNamed(sourceCode, name)) {
      if (scope && (call.range[0] < scope.range[0] || call.range[1] > scope.range[1])) continue;
      if (resolveWorkFunction(sourceCode, call.callee)?.fn === fn) out.push(call);
    }
  }
  return out.sort((a, b) => a.range[0] - b.range[0] || b.range[1] - a.range[1]);
}

/** Whether code inside `region` calls `fn` (a call `callersOf` would list, and `accept` takes): a walk of the region alone, not the file. */
export function callsInside(
  sourceCode: SourceCode,
  fn: FunctionLike,
  region: TSESTree.Node,
  accept: (call: TSESTree.CallExpression) => boolean = () => true,
): boolean {
  const scope = ancestorClassBody(fn);
  const names = namesOf(fn);
  for (const node of descendants(region, sourceCode.visitorKeys)) {
    if (node.type !== 'CallExpression') continue;
    const callee = node.callee;
    // A member reaches `fn` only by its own name (`this.start()`); a bare name also through a bound alias.
    if (callee.type === 'MemberExpression' ? !names.includes(calledName(callee) ?? '') : callee.type !== 'Identifier') continue;
    if (scope && (node.range[0] < scope.range[0] || node.range[1] > scope.range[1])) continue;
    if (resolveWorkFunction(sourceCode, callee)?.fn === fn && accept(node)) return true;
  }
  return false;
}
