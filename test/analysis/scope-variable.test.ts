// scopeVariable(): the variable eslint-utils' findVariable finds for every name, also in a scope
// with many child scopes (searched by halves) and where names are shadowed at several depths.
import { findVariable } from '@eslint-community/eslint-utils';
import { parseForESLint } from '@typescript-eslint/parser';
import type { TSESTree } from '@typescript-eslint/utils';
import { SourceCode } from 'eslint';
import { describe, expect, test } from 'vitest';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';

const functions = Array.from(
  { length: 40 },
  (_, i) => `function f${i}(a, b = x) { const x = a + ${i}; if (b) { let a = x; return () => a + f${(i + 1) % 40}(x); } return a; }`,
);
const text = ['const x = 1;', ...functions, 'class C { m(x) { return [x, f0(x), (y) => y + x]; } }', 'f1(x); g(x);'].join('\n');
const parsed = parseForESLint(text, { range: true, loc: true, tokens: true, comment: true, sourceType: 'module' });
const visitorKeys = parsed.visitorKeys as unknown as Record<string, readonly string[]>;
const sourceCode = new SourceCode({ text, ast: parsed.ast, scopeManager: parsed.scopeManager, visitorKeys } as never);

/** Every identifier, with `parent` set as ESLint's traversal sets it. */
function identifiers(): TSESTree.Identifier[] {
  const out: TSESTree.Identifier[] = [];
  const stack: TSESTree.Node[] = [parsed.ast as TSESTree.Node];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'Identifier') out.push(node);
    for (const key of visitorKeys[node.type] ?? []) {
      const value = (node as unknown as Record<string, unknown>)[key];
      for (const child of Array.isArray(value) ? value : [value]) {
        if (child && typeof (child as TSESTree.Node).type === 'string') {
          (child as { parent?: TSESTree.Node }).parent = node;
          stack.push(child as TSESTree.Node);
        }
      }
    }
  }
  return out;
}

describe('scopeVariable', () => {
  test("the variable eslint-utils' findVariable finds, for every name of a module of many functions", () => {
    const names = identifiers();
    expect(names.length).toBeGreaterThan(500);
    for (const identifier of names) {
      const expected = findVariable(sourceCode.getScope(identifier as never) as never, identifier as never) ?? undefined;
      expect(scopeVariable(sourceCode as never, identifier)).toBe(expected);
    }
  });

  test('a name nobody declared: undefined', () => {
    const g = identifiers().find((identifier) => identifier.name === 'g');
    expect(g && scopeVariable(sourceCode as never, g)).toBeUndefined();
  });
});
