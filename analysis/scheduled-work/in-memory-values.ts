// What a name holds, read in its own file: the module it is imported or required from, the value
// a variable is given, and whether a receiver is an in-memory structure this file builds (a
// `const sessions = new Map()`, a field only ever given `new LRUCache(…)`) — whatever it is named
// (`callQueue.delete(id)` changes this process's memory, not a queue's).
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { scopeVariable } from '../ast/scope-variable.js';
import { assignedFieldValues } from '../ast/class-fields.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { IN_MEMORY_CONSTRUCTORS, IN_MEMORY_MODULES } from '../../src/knowledge/host-local.js';
import { LOG_METHODS } from '../../src/knowledge/work-effects.js';
import { propertyKeyName } from '../ast/property-names.js';

/** The module a name is imported or required from (`import { promises } from 'fs'` → `fs`). */
export function importSource(sourceCode: SourceCode, identifier: TSESTree.Identifier): string | undefined {
  const def = scopeVariable(sourceCode, identifier)?.defs[0];
  const node = def?.node as TSESTree.Node | undefined;
  if (def?.type === 'ImportBinding' && node?.parent?.type === 'ImportDeclaration') return node.parent.source.value;
  if (def?.type !== 'Variable' || node?.type !== 'VariableDeclarator' || !node.init) return undefined;
  const init = unwrapExpression(node.init, { await: true });
  let call = init.type === 'MemberExpression' ? init.object : init;
  // A value the module's export makes when called (`require('debug')('jobs')`, `createDebug('jobs')`) is the module's.
  if (call.type === 'CallExpression' && call.callee.type === 'CallExpression') call = call.callee;
  if (call.type === 'CallExpression' && call.callee.type === 'Identifier' && call.callee.name !== 'require' && call.callee !== identifier)
    return importSource(sourceCode, call.callee);
  if (call.type !== 'CallExpression' || call.callee.type !== 'Identifier' || call.callee.name !== 'require') return undefined;
  const source = call.arguments[0];
  return source?.type === 'Literal' && typeof source.value === 'string' ? source.value : undefined;
}

/** What a variable holds: its initializer, or for a loop variable the collection it walks. */
export function valueOf(sourceCode: SourceCode, identifier: TSESTree.Identifier): TSESTree.Node | undefined {
  const def = scopeVariable(sourceCode, identifier)?.defs[0];
  const node = def?.node as TSESTree.Node | undefined;
  if (def?.type !== 'Variable' || node?.type !== 'VariableDeclarator') return undefined;
  if (node.init) return node.init;
  const loop = node.parent?.parent;
  return loop?.type === 'ForOfStatement' || loop?.type === 'ForInStatement' ? loop.right : undefined;
}

/** `new Map()`, `new LRUCache(…)`, also a cache class imported under another name (`new Store(…)` from `lru-cache`). */
export function isInMemoryValue(sourceCode: SourceCode, node: TSESTree.Node | undefined): boolean {
  const value = node && unwrapExpression(node);
  if (value?.type !== 'NewExpression' || value.callee.type !== 'Identifier') return false;
  if (IN_MEMORY_CONSTRUCTORS.includes(value.callee.name)) return true;
  const source = importSource(sourceCode, value.callee);
  return source !== undefined && IN_MEMORY_MODULES.includes(source);
}

/**
 * A receiver this file builds as an in-memory structure: `this.store` of a class that only ever
 * assigns it `new LRUCache(…)`, or a `const sessions = new Map()`. Whatever its method is named
 * (`purgeStale`, `deleteExpired`), a call on it changes this process's memory.
 */
export function holdsInMemoryStructure(sourceCode: SourceCode, receiver: TSESTree.Node): boolean {
  const node = unwrapExpression(receiver);
  if (node.type === 'Identifier') return isInMemoryValue(sourceCode, valueOf(sourceCode, node));
  if (node.type !== 'MemberExpression' || node.object.type !== 'ThisExpression') return false;
  // Every value the class gives it (not its type, not a `null` placeholder) must be in memory.
  const values = assignedFieldValues(node, sourceCode.visitorKeys);
  return values.length > 0 && values.every((value) => isInMemoryValue(sourceCode, value));
}

/** `debug` of `const { log, debug, warn } = new Log('Session')`: one of a logger's line writers, whatever the logger is. */
export function isLogWriter(sourceCode: SourceCode, identifier: TSESTree.Identifier): boolean {
  const def = scopeVariable(sourceCode, identifier)?.defs[0];
  const pattern = def?.type === 'Variable' && def.node.id.type === 'ObjectPattern' ? def.node.id.properties : [];
  return pattern.length > 0 && pattern.every((p) => p.type === 'Property' && LOG_METHODS.includes(propertyKeyName(p) ?? ''));
}
