// How a file is written, so inserted code looks like its neighbours: quotes, semicolons, line
// endings, the indentation unit and whether it is an ES module or CommonJS.
import type { TSESTree } from '@typescript-eslint/utils';

export type ModuleStyle = 'esm' | 'cjs';

export interface FileStyle {
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

/** ESM when the file uses `import`/`export` or its extension says so; else CommonJS for `require`. */
export function moduleStyleOf(path: string, program: TSESTree.Program, packageType: 'module' | 'commonjs'): ModuleStyle {
  if (/\.(mjs|mts)$/.test(path)) return 'esm';
  if (/\.(cjs|cts)$/.test(path)) return 'cjs';
  const esm = program.body.some(
    (s) =>
      s.type === 'ImportDeclaration' ||
      s.type === 'ExportNamedDeclaration' ||
      s.type === 'ExportDefaultDeclaration' ||
      s.type === 'ExportAllDeclaration',
  );
  if (esm) return 'esm';
  if (hasRequire(program)) return 'cjs';
  if (/\.(ts|tsx)$/.test(path)) return 'esm';
  return packageType === 'module' ? 'esm' : 'cjs';
}

function hasRequire(program: TSESTree.Program): boolean {
  return (program.tokens ?? []).some((t, i, all) => t.type === 'Identifier' && t.value === 'require' && all[i + 1]?.value === '(');
}

export function fileStyleOf(path: string, text: string, program: TSESTree.Program, packageType: 'module' | 'commonjs'): FileStyle {
  const crlf = (text.match(/\r\n/g) ?? []).length;
  const lf = (text.match(/\n/g) ?? []).length - crlf;
  return {
    quote: quoteOf(program),
    semicolons: semicolonsOf(text, program),
    eol: crlf > lf ? '\r\n' : '\n',
    indentUnit: indentUnitOf(text),
    module: moduleStyleOf(path, program, packageType),
  };
}

/** A string literal in the file's quote style. */
export function quoted(value: string, quote: "'" | '"'): string {
  const escaped = value.replace(/\\/g, '\\\\').split(quote).join(`\\${quote}`);
  return `${quote}${escaped}${quote}`;
}

/** The indentation (leading whitespace) of the line containing `offset`. */
export function indentationAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
}
