// A call of a utility library's number or string conversion (`_toNumber(await redis.get(k))` with
// `import * as _toNumber from 'lodash/toNumber'`, `toNumber` from `lodash`, `_.toNumber(x)`): the
// value passes through, as through `Number(x)`. Told by the file's imports and requires, read once per
// file and only for a call whose callee no other check took.
import type { TSESTree } from '@typescript-eslint/utils';
import { CONVERSION_LIBRARIES, LIBRARY_CONVERSIONS } from '../../src/knowledge/orm-reads-writes.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { programOf } from '../../analysis/ast/program-of.js';
import { requiredSpecifier } from '../../analysis/imports/module-bindings.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';

/** What a local name imported from a conversion library stands for: one conversion, or the whole library. */
type Binding = 'conversion' | 'library';

const bindingsOf = new WeakMap<TSESTree.Program, Map<string, Binding>>();

/** `lodash/toNumber` → `toNumber`; `lodash.tonumber` → `tonumber`; `lodash` → undefined. Undefined too for another module. */
function libraryPath(source: string): { method: string | undefined } | undefined {
  for (const library of CONVERSION_LIBRARIES) {
    if (source === library) return { method: undefined };
    if (source.startsWith(`${library}/`)) return { method: source.slice(library.length + 1) };
    if (source.startsWith(`${library}.`)) return { method: source.slice(library.length + 1) };
  }
  return undefined;
}

const isConversion = (name: string | undefined): boolean =>
  name !== undefined && LIBRARY_CONVERSIONS.some((c) => c.toLowerCase() === name.toLowerCase());

/** Each name a module-level import or `require` of a conversion library binds. */
function collect(program: TSESTree.Program): Map<string, Binding> {
  const names = new Map<string, Binding>();
  const bind = (source: string, local: string, imported: string | undefined): void => {
    const path = libraryPath(source);
    if (!path) return;
    if (path.method !== undefined) {
      if (isConversion(path.method)) names.set(local, 'conversion');
    } else if (imported === undefined) names.set(local, 'library');
    else if (isConversion(imported)) names.set(local, 'conversion');
  };
  for (const statement of program.body) {
    if (statement.type === 'ImportDeclaration') {
      for (const s of statement.specifiers) {
        const imported = s.type === 'ImportSpecifier' ? (s.imported.type === 'Identifier' ? s.imported.name : s.imported.value) : undefined;
        bind(statement.source.value, s.local.name, imported);
      }
    }
    if (statement.type !== 'VariableDeclaration') continue;
    for (const declarator of statement.declarations) {
      const source = requiredSpecifier(declarator.init && unwrapExpression(declarator.init));
      if (source === undefined) continue;
      if (declarator.id.type === 'Identifier') bind(source, declarator.id.name, undefined);
      if (declarator.id.type === 'ObjectPattern')
        for (const p of declarator.id.properties)
          if (p.type === 'Property' && p.key.type === 'Identifier' && p.value.type === 'Identifier') bind(source, p.value.name, p.key.name);
    }
  }
  return names;
}

/** Whether `callee` is a conversion of a utility library imported in the file (`_toNumber`, `_.toNumber`). */
export function isLibraryConversion(callee: TSESTree.Node): boolean {
  const program = programOf(callee);
  if (!program) return false;
  let names = bindingsOf.get(program);
  if (!names) bindingsOf.set(program, (names = collect(program)));
  if (names.size === 0) return false;
  if (callee.type === 'Identifier') return names.get(callee.name) === 'conversion';
  return (
    callee.type === 'MemberExpression' &&
    callee.object.type === 'Identifier' &&
    names.get(callee.object.name) === 'library' &&
    isConversion(memberPropertyName(callee))
  );
}
