import { expect, test } from 'vitest';
import { parse } from '@typescript-eslint/parser';
import type { TSESTree } from '@typescript-eslint/utils';
import { returnedExpressions } from '../../analysis/ast/returned-expressions.js';

const fnOf = (code: string) => {
  const program = parse(code, { range: true }) as unknown as TSESTree.Program;
  const first = program.body[0]!;
  return (first.type === 'VariableDeclaration' ? first.declarations[0]!.init : first) as TSESTree.FunctionLike;
};

test('an arrow expression body, or the arguments of the function’s own returns', () => {
  const texts = (code: string) => returnedExpressions(fnOf(code)).map((n) => code.slice(n.range[0], n.range[1]));
  expect(texts('const f = () => ({ a: 1 });')).toEqual(['({ a: 1 })'.slice(1, -1)]);
  expect(
    texts('function f(x) { if (x) return a; for (;;) { return b; } const g = () => { return c; }; class K { m() { return d; } } return; }'),
  ).toEqual(['a', 'b']);
});
