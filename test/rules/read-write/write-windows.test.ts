// Where no-read-then-write's engine walks (rules/no-read-then-write/write-windows.ts): the
// functions of a top-level statement or class member that names a write, and all code outside
// functions; never a function whose unit names none. A SQL string outside functions marks the
// places that name it, and one that cannot be followed turns the windows off (`null`).
import { Linter } from 'eslint';
import tsParser from '@typescript-eslint/parser';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';
import { hookWordOffsets, writeCallOffsets } from '../../../rules/no-read-then-write/mentions.js';
import { walkWriteWindows, writeMarkers } from '../../../rules/no-read-then-write/write-windows.js';

const lines = (...l: string[]): string => l.join('\n');

/** The names of the functions and calls the walk enters, in order; `null` when the windows are off. */
function walked(code: string, sqlWrites = false): string[] | null {
  let seen: string[] | null = [];
  const rule = {
    create(context: TSESLint.RuleContext<string, []>) {
      return {
        'Program:exit'(program: TSESTree.Program) {
          const { sourceCode } = context;
          const markers = writeMarkers(sourceCode, writeCallOffsets(sourceCode.text), hookWordOffsets(sourceCode.text), sqlWrites);
          if (markers === null) {
            seen = null;
            return;
          }
          const name = (node: TSESTree.Node): string => sourceCode.getText(node).split('(')[0]!;
          walkWriteWindows(
            program,
            {
              FunctionDeclaration: (node: TSESTree.FunctionDeclaration) => seen!.push(`fn ${node.id?.name}`),
              'FunctionExpression:exit': (node: TSESTree.FunctionExpression) =>
                seen!.push(`exit ${node.parent.type === 'MethodDefinition' ? name(node.parent.key) : '?'}`),
              CallExpression: (node: TSESTree.CallExpression) => seen!.push(`call ${name(node.callee)}`),
            },
            sourceCode.visitorKeys,
            markers,
          );
        },
      };
    },
  };
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tsParser as never },
        plugins: { t: { rules: { walk: rule as never } } },
        rules: { 't/walk': 'error' },
      },
    ],
    'file.ts',
  );
  expect(messages.filter((m) => m.fatal)).toEqual([]);
  return seen;
}

describe('no-read-then-write write windows', () => {
  it('walks the functions of units that name a write, and top-level code, but no other function', () => {
    expect(
      walked(
        lines(
          'const repo = getRepository(Account);',
          'export async function report(id: string) { const a = await repo.findOneBy({ id }); log(a.balance); }',
          'export async function credit(id: string) { const a = await repo.findOneBy({ id }); a.balance += 1; await repo.save(a); }',
          'class Accounts {',
          '  list() { return repo.find(); }',
          '  async touch(id: string) { await repo.update(id, { seen: true }); }',
          '}',
        ),
      ),
    ).toEqual(['call getRepository', 'fn credit', 'call repo.findOneBy', 'call repo.save', 'call repo.update', 'exit touch']);
  });

  it('walks a save hook whose decorator names it, though its body calls no write', () => {
    expect(
      walked(lines('class Counter {', '  @BeforeUpdate()', '  bump() { this.total = sum(this.items); }', '  other() { noop(); }', '}')),
    ).toEqual(['call BeforeUpdate', 'call sum', 'exit bump']);
  });

  it('follows a SQL constant to the functions that name it', () => {
    expect(
      walked(
        lines(
          "const SET_STOCK = 'UPDATE products SET stock = $1 WHERE id = $2';",
          'async function take(id: string) { await pool.query(SET_STOCK, [1, id]); }',
          "async function read(id: string) { await pool.query('SELECT 1'); }",
        ),
        true,
      ),
    ).toEqual(['fn take', 'call pool.query']);
  });

  it('finds the way to a SQL string among many statements, in a class body and past a hole in a list', () => {
    const filler = Array.from({ length: 300 }, (_, i) => `export const value${i} = ${i};`);
    expect(
      walked(
        lines(
          ...filler,
          "const QUERIES = ['SELECT 1', , { touch: 'UPDATE t SET seen = true WHERE id = $1' }];",
          ...filler.map((line) => line.replace('value', 'other')),
          'class Store {',
          ...Array.from({ length: 50 }, (_, i) => `  field${i} = ${i};`),
          "  bump = 'UPDATE t SET n = n + 1';",
          '}',
          'async function mark(id: string) { await pool.query(loaded.touch, [id]); }',
          'async function again() { await pool.query(store.bump); }',
          'async function idle() { await pool.query(nothing()); }',
        ),
        true,
      ),
    ).toEqual(['fn mark', 'call pool.query', 'fn again', 'call pool.query']);
  });

  it('walks every function when a SQL string outside functions has no name on its way', () => {
    expect(walked(lines("register(['UPDATE t SET a = 1']);", 'async function run() { await pool.query(next()); }'), true)).toBeNull();
  });
});
