// exportingStatements(): the top-level statements that may export each name, in source order — a
// superset of those that do (the lookup asks each one), never missing one — and the star re-exports.
import { parseForESLint } from '@typescript-eslint/parser';
import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, test } from 'vitest';
import { exportingStatements } from '../../analysis/modules/exporting-statements.js';

const text = [
  "import { helper } from './helper';",
  'export function load() {}',
  'export const a = 1, b = () => 2;',
  "export { helper as aid, load as 'quoted' };",
  "export * from './more';",
  "export * as ns from './ns';",
  'exports.report = function report() {};',
  'module.exports = { sweep, purge: () => 1 };',
  "module.exports['computed'] = 3;",
  'export default load;',
  'const local = 4;',
].join('\n');
const program = parseForESLint(text, { range: true, sourceType: 'module' }).ast as TSESTree.Program;
const lines = (name: string): number[] =>
  (exportingStatements(program).byName.get(name) ?? []).map((statement) => program.body.indexOf(statement));

describe('exportingStatements', () => {
  test('each name: the statements that may export it, in source order', () => {
    expect(lines('load')).toEqual([1]);
    expect(lines('a')).toEqual([2]);
    expect(lines('b')).toEqual([2]);
    expect(lines('aid')).toEqual([3]);
    expect(lines('quoted')).toEqual([3]);
    expect(lines('report')).toEqual([6]);
    expect(lines('sweep')).toEqual([7]);
    expect(lines('purge')).toEqual([7]);
    expect(lines('computed')).toEqual([8]);
    // Any CommonJS assignment may export `default` (`module.exports = …`); the lookup asks each.
    expect(lines('default')).toEqual([6, 7, 8, 9]);
    expect(lines('local')).toEqual([]);
    expect(lines('helper')).toEqual([]);
  });

  test('star re-exports without a name, in order; indexed once per program', () => {
    expect(exportingStatements(program).stars).toEqual(['./more']);
    expect(exportingStatements(program)).toBe(exportingStatements(program));
  });
});
