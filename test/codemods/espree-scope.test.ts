// The codemod's JavaScript parser runs ESLint's scope analysis without copying the visitor keys
// per visitor: the scopes, variables and references must be exactly those ESLint's own call
// gives, on every kind of scope and binding, and on a dynamic import whose options name a variable
// (the one node whose children the two key tables disagree on).
import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import { espreeWithScope, hasImportCall, scopeOptions } from '../../codemods/engine/espree-scope.js';

const fromEslint = createRequire(createRequire(import.meta.url).resolve('eslint'));
const espree = fromEslint('espree') as { parse(text: string, options: unknown): { tokens: Array<{ type: string; value: string }> } };
const eslintScope = fromEslint('eslint-scope') as { analyze(ast: unknown, options: unknown): ScopeManager };

interface Reference {
  identifier: { name: string; range: [number, number] };
  flag: number;
  resolved: unknown;
}
interface ScopeManager {
  scopes: Array<{
    type: string;
    block: { range: [number, number] };
    variables: Array<{ name: string; defs: Array<{ type: string }>; references: Reference[] }>;
    references: Reference[];
    through: Reference[];
  }>;
}

const place = (r: Reference): string => `${r.identifier.name}@${r.identifier.range[0]}:${r.flag}:${r.resolved === null ? 'free' : 'bound'}`;
const shape = (manager: ScopeManager) =>
  manager.scopes.map((s) => ({
    scope: `${s.type}@${s.block.range.join('-')}`,
    variables: s.variables.map((v) => `${v.name}:${v.defs.map((d) => d.type).join(',')}:${v.references.map(place).join(',')}`),
    references: s.references.map(place),
    through: s.through.map(place),
  }));

const parse = (text: string, sourceType: string) => {
  const options = {
    ecmaVersion: 2026,
    sourceType,
    loc: true,
    range: true,
    raw: true,
    tokens: true,
    comment: true,
    ecmaFeatures: { jsx: true },
    // As ESLint asks: for a scope manager.
    eslintScopeManager: true,
  };
  const mine = (
    espreeWithScope as unknown as { parseForESLint(t: string, o: unknown): { ast: unknown; scopeManager: ScopeManager } }
  ).parseForESLint(text, options);
  return { mine: mine.scopeManager, eslints: eslintScope.analyze(mine.ast, scopeOptions(options, true)) };
};

const MODULE = `import def, { a as b, c } from './x.js';
import * as ns from './y.js' with { type: 'json' };
export { b as renamed, c };
export * as all from './z.js';
export default class Job extends def {
  static #count = 0;
  static { Job.#count = ns.start; }
  field = b;
  async *run({ id, ...rest }, [first = id] = [], ...more) {
    label: for (const [key, { value }] of Object.entries(rest)) {
      try { yield value ?? first; } catch ({ message }) { break label; }
    }
    let total; ({ total = 1 } = more[0]);
    return <Row key={key} total={total}>{value}</Row>;
  }
}
function hoisted() { return typeof later; }
const later = (x = hoisted()) => x?.y;
`;

const COMMONJS = `'use strict';
const { query } = require('./db');
module.exports = function sweep(rows) {
  var total = 0;
  for (let i = 0; i < rows.length; i++) total += rows[i].n;
  return query(\`update t set n = \${total}\`).then(function (result) { return result.rowCount; });
};
return;
`;

describe('espree with the codemod scope analysis', () => {
  test.each([
    ['module', MODULE],
    ['commonjs', COMMONJS],
  ])('a %s file gets the scopes, variables and references ESLint analyses', (sourceType, text) => {
    const { mine, eslints } = parse(text, sourceType);
    expect(shape(mine)).toEqual(shape(eslints));
    expect(mine.scopes.length).toBeGreaterThan(3);
  });

  test("a dynamic import's options are visited: the variable they name is referenced", () => {
    const text = `const kind = 'json';\nexport const load = () => import('./data.json', { with: { type: kind } });\n`;
    const { mine, eslints } = parse(text, 'module');
    const kind = (m: ScopeManager) => m.scopes[1]!.variables.find((v) => v.name === 'kind')!.references.map(place);
    expect(kind(mine)).toEqual(['kind@6:2:bound', 'kind@85:1:bound']);
    expect(shape(mine)).toEqual(shape(eslints));
  });

  test('asked by the rules for an imported module, it parses as espree alone: the tree, no scopes, no TypeScript', () => {
    const parser = espreeWithScope as unknown as {
      parseForESLint(t: string, o: unknown): { ast: { type: string }; scopeManager?: unknown };
    };
    const options = { ecmaVersion: 'latest', sourceType: 'module', range: true, loc: true, tokens: true, comment: true };
    const module = parser.parseForESLint('export const n = 1;', { ...options, filePath: '/p/helper.js' });
    expect(module.ast.type).toBe('Program');
    expect(module).not.toHaveProperty('scopeManager');
    expect(() => parser.parseForESLint('export const n = 1;', { ...options, filePath: '/p/helper.ts' })).toThrow(/TypeScript/);
    expect(
      parser.parseForESLint('export const n = 1;', { ...options, ecmaVersion: 2026, eslintScopeManager: true }).scopeManager,
    ).toBeDefined();
  });

  test('hasImportCall finds import( in code only', () => {
    const tokens = (text: string) => espree.parse(text, { ecmaVersion: 2026, sourceType: 'module', tokens: true, range: true }).tokens;
    expect(hasImportCall(tokens(`const m = await import ('./m.js');`))).toBe(true);
    expect(hasImportCall(tokens(`// import('./m.js')\nconst s = "import(x)";\nimport x from './x.js';\nconst u = import.meta.url;`))).toBe(
      false,
    );
  });
});
