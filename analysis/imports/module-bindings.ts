// The names a file binds to other modules at its top level: `import x from 'm'`, `import { a as b }
// from 'm'`, `import * as ns from 'm'`, `const x = require('m')`, `const { a, b: c } = require('m')`
// (also `require('m').default`), each with the module's specifier. Kept per Program node.
import type { TSESTree } from '@typescript-eslint/utils';

/** `require('m')` or `require('m').x`'s specifier (also awaited). */
export function requiredSpecifier(init: TSESTree.Node | null | undefined): string | undefined {
  let call = init;
  if (call?.type === 'AwaitExpression') call = call.argument;
  if (call?.type === 'MemberExpression') call = call.object;
  if (call?.type !== 'CallExpression' || call.callee.type !== 'Identifier' || call.callee.name !== 'require') return undefined;
  const source = call.arguments[0];
  return source?.type === 'Literal' && typeof source.value === 'string' ? source.value : undefined;
}

/** Names bound by a declarator's pattern (`x`, or `{ a, b: c }`). */
function boundNames(id: TSESTree.Node): string[] {
  if (id.type === 'Identifier') return [id.name];
  if (id.type !== 'ObjectPattern') return [];
  return id.properties.flatMap((p) => (p.type === 'Property' && p.value.type === 'Identifier' ? [p.value.name] : []));
}

const cache = new WeakMap<TSESTree.Program, ReadonlyMap<string, string>>();

/** Each top-level name bound to an import or a require, with the specifier of its module. */
export function moduleBindings(program: TSESTree.Program): ReadonlyMap<string, string> {
  let bindings = cache.get(program);
  if (bindings) return bindings;
  const found = new Map<string, string>();
  for (const statement of program.body) {
    if (statement.type === 'ImportDeclaration') {
      for (const specifier of statement.specifiers) found.set(specifier.local.name, statement.source.value);
      continue;
    }
    if (statement.type !== 'VariableDeclaration') continue;
    for (const declarator of statement.declarations) {
      const specifier = requiredSpecifier(declarator.init);
      if (specifier !== undefined) for (const name of boundNames(declarator.id)) found.set(name, specifier);
    }
  }
  cache.set(program, (bindings = found));
  return bindings;
}
