// How a file is written, so inserted code looks like its neighbours: quotes, semicolons, line
// endings, the indentation unit and whether it is an ES module or CommonJS.
import type { TSESTree } from '@typescript-eslint/utils';
import { moduleSystemOf, type ImportStyle, type ModuleSystem } from '../../rules/rewrites/runtime-import.js';

export type ModuleStyle = ModuleSystem;

export interface FileStyle extends ImportStyle {
  quote: "'" | '"';
  semicolons: boolean;
  eol: '\n' | '\r\n';
  /** One level of indentation (`'  '`, `'    '` or `'\t'`). */
  indentUnit: string;
  module: ModuleStyle;
}

function quoteOf(program: TSESTree.Program): "'" | '"' {
  let single = 0;
  let double = 0;
  for (const token of program.tokens ?? []) {
    if (token.type !== 'String') continue;
    if (token.value.startsWith("'")) single += 1;
    else if (token.value.startsWith('"')) double += 1;
  }
  return double > single ? '"' : "'";
}

const STATEMENTS_ENDING_IN_SEMICOLON = new Set([
  'ImportDeclaration',
  'ExpressionStatement',
  'VariableDeclaration',
  'ReturnStatement',
  'ThrowStatement',
]);

function semicolonsOf(text: string, program: TSESTree.Program): boolean {
  let withSemi = 0;
  let without = 0;
  const visit = (statements: readonly TSESTree.Node[]): void => {
    for (const statement of statements) {
      if (!STATEMENTS_ENDING_IN_SEMICOLON.has(statement.type)) continue;
      if (text[statement.range[1] - 1] === ';') withSemi += 1;
      else without += 1;
    }
  };
  visit(program.body);
  return without <= withSemi;
}

function indentUnitOf(text: string): string {
  let tabs = 0;
  let smallest = Infinity;
  for (const match of text.matchAll(/^([ \t]+)\S/gm)) {
    const indent = match[1] ?? '';
    if (indent.startsWith('\t')) tabs += 1;
    else if (indent.length < smallest && indent.length >= 2) smallest = indent.length;
  }
  if (tabs > 0 && smallest === Infinity) return '\t';
  return ' '.repeat(smallest === Infinity ? 2 : Math.min(smallest, 8));
}

export function fileStyleOf(path: string, text: string, program: TSESTree.Program, packageType: 'module' | 'commonjs'): FileStyle {
  const crlf = (text.match(/\r\n/g) ?? []).length;
  const lf = (text.match(/\n/g) ?? []).length - crlf;
  return {
    quote: quoteOf(program),
    semicolons: semicolonsOf(text, program),
    eol: crlf > lf ? '\r\n' : '\n',
    indentUnit: indentUnitOf(text),
    module: moduleSystemOf(path, program, { packageType }),
  };
}

// Shared with the rules' suggestions, which cannot import the codemod.
export { indentationAt, quoted } from '../../rules/rewrites/runtime-import.js';
