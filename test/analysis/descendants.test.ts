// descendants(): every node under a node in source order, skipping below the nodes `skip` names.
import { parseForESLint } from '@typescript-eslint/parser';
import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, test } from 'vitest';
import { descendants } from '../../analysis/sql/descendants.js';

const text = [
  'function outer(a, b = 1) {',
  '  const x = a + b;',
  '  function inner() { return x * 2; }',
  '  return [x, inner(), { y: () => a }];',
  '}',
].join('\n');
const parsed = parseForESLint(text, { range: true });
const ast = parsed.ast;
// The parser's keys type allows missing entries; descendants takes ESLint's (every type listed).
const visitorKeys = parsed.visitorKeys as Parameters<typeof descendants>[1];
const at = (node: TSESTree.Node): string => `${node.type}@${node.range[0]}`;

describe('descendants', () => {
  test('pre-order, in source order', () => {
    const order = [...descendants(ast as TSESTree.Node, visitorKeys)].map(at);
    expect(order.slice(0, 8)).toEqual([
      'FunctionDeclaration@0',
      'Identifier@9',
      'Identifier@15',
      'AssignmentPattern@18',
      'Identifier@18',
      'Literal@22',
      'BlockStatement@25',
      'VariableDeclaration@29',
    ]);
    const starts = order.map((entry) => Number(entry.split('@')[1]));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  });

  test('a skipped node is yielded, what is under it is not', () => {
    const nested = (node: TSESTree.Node): boolean => node.type === 'FunctionDeclaration' || node.type === 'ArrowFunctionExpression';
    const body = (ast.body[0] as TSESTree.FunctionDeclaration).body;
    const types = [...descendants(body, visitorKeys, nested)].map((node) => node.type);
    expect(types).toContain('FunctionDeclaration');
    expect(types).toContain('ArrowFunctionExpression');
    expect(types.filter((type) => type === 'ReturnStatement')).toHaveLength(1);
    expect([...descendants(body, visitorKeys, nested)].some((node) => node.type === 'BinaryExpression' && node.operator === '*')).toBe(
      false,
    );
  });
});
