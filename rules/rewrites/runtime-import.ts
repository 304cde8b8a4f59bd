// How a file reaches replica-guard's runtime exports, and the edits that make them reachable:
// reuse an existing import (named, aliased, namespace, `require`, destructured `require`), merge
// into one, or add `import { x } from 'replica-guard'` (ESM) / `const { x } = require(…)` (CJS).
// The rules' suggestions and the codemod engine both build the import here, so they cannot differ.
import type { TSESTree } from '@typescript-eslint/utils';
import type { RuleFix, RuleFixer, SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { RUNTIME_MODULE } from '../../src/knowledge/guards.js';

export { RUNTIME_MODULE };

export type ModuleSystem = 'esm' | 'cjs';

/**
 * ES module or CommonJS — the one place this is decided (how a file is parsed, which import is
 * written). In order: the extension (`.mjs`/`.mts`, `.cjs`/`.cts`), the file's own syntax
 * (`import`/`export`, else a `require(…)` call), a config that says `commonjs`/`script`,
 * TypeScript sources (written as modules whatever they compile to), then the package's `type`.
 */
export function moduleSystemOf(
  path: string,
  program: TSESTree.Program | undefined,
  declared: { sourceType?: string; packageType?: 'module' | 'commonjs' } = {},
): ModuleSystem {
  if (/\.(mjs|mts)$/.test(path)) return 'esm';
  if (/\.(cjs|cts)$/.test(path)) return 'cjs';
  if (program) {
    const esm = program.body.some(
      (s) =>
        s.type === 'ImportDeclaration' ||
        s.type === 'ExportNamedDeclaration' ||
        s.type === 'ExportDefaultDeclaration' ||
        s.type === 'ExportAllDeclaration',
    );
    if (esm) return 'esm';
    if (hasRequireCall(program)) return 'cjs';
  }
  if (declared.sourceType === 'commonjs' || declared.sourceType === 'script') return 'cjs';
  if (/\.(ts|tsx)$/.test(path)) return 'esm';
  if (declared.packageType !== undefined) return declared.packageType === 'module' ? 'esm' : 'cjs';
  return 'esm';
}

function hasRequireCall(program: TSESTree.Program): boolean {
  const tokens = program.tokens;
  if (!tokens) return program.body.some(isRequireDeclaration);
  return tokens.some((t, i) => t.type === 'Identifier' && t.value === 'require' && tokens[i + 1]?.value === '(');
}

/** How inserted code is written: the file's quotes, semicolons, line ending and module system. */
export interface ImportStyle {
  quote: "'" | '"';
  semicolons: boolean;
  eol: string;
  module: ModuleSystem;
  /** A blank line between a new first import and the code below it (default true; suggestions keep the diff to one line). */
  blankLineAfterImport?: boolean;
}

/** Replace `[start, end)` with `text`; `start === end` is an insertion. */
export interface RangeEdit {
  start: number;
  end: number;
  text: string;
}

function isRuntimeRequire(node: TSESTree.Node | null | undefined): node is TSESTree.CallExpression {
  return (
    node?.type === 'CallExpression' &&
    node.callee.type === 'Identifier' &&
    node.callee.name === 'require' &&
    node.arguments.length === 1 &&
    node.arguments[0]!.type === 'Literal' &&
    node.arguments[0]!.value === RUNTIME_MODULE
  );
}

function isRequireDeclaration(statement: TSESTree.Node): boolean {
  if (statement.type !== 'VariableDeclaration') return false;
  return statement.declarations.some((d) => {
    const init = d.init?.type === 'MemberExpression' ? d.init.object : d.init;
    return init?.type === 'CallExpression' && init.callee.type === 'Identifier' && init.callee.name === 'require';
  });
}

const importedName = (specifier: TSESTree.ImportSpecifier): string =>
  specifier.imported.type === 'Identifier' ? specifier.imported.name : String(specifier.imported.value);

// The runtime's imports and requires of a program, read once per program: a rule asks for each
// finding, and a file can hold thousands.
const runtimeDeclarationsCache = new WeakMap<
  TSESTree.Program,
  { imports: TSESTree.ImportDeclaration[]; requires: TSESTree.VariableDeclarator[] }
>();

function runtimeDeclarations(program: TSESTree.Program): {
  imports: TSESTree.ImportDeclaration[];
  requires: TSESTree.VariableDeclarator[];
} {
  let found = runtimeDeclarationsCache.get(program);
  if (!found) {
    found = {
      imports: program.body.filter(
        (s): s is TSESTree.ImportDeclaration =>
          s.type === 'ImportDeclaration' && s.source.value === RUNTIME_MODULE && s.importKind !== 'type',
      ),
      requires: program.body.flatMap((s) =>
        s.type === 'VariableDeclaration' ? s.declarations.filter((d) => isRuntimeRequire(d.init)) : [],
      ),
    };
    runtimeDeclarationsCache.set(program, found);
  }
  return found;
}

const runtimeImports = (program: TSESTree.Program): TSESTree.ImportDeclaration[] => runtimeDeclarations(program).imports;
const runtimeRequires = (program: TSESTree.Program): TSESTree.VariableDeclarator[] => runtimeDeclarations(program).requires;

/** How `name` is already reachable in the file (`claimPeriod`, an alias, `rg.claimPeriod`), if it is. */
export function existingRuntimeCallee(program: TSESTree.Program, name: string): string | undefined {
  for (const statement of runtimeImports(program)) {
    for (const specifier of statement.specifiers) {
      if (specifier.type === 'ImportNamespaceSpecifier') return `${specifier.local.name}.${name}`;
      if (specifier.type === 'ImportSpecifier' && specifier.importKind !== 'type' && importedName(specifier) === name)
        return specifier.local.name;
    }
  }
  for (const declarator of runtimeRequires(program)) {
    if (declarator.id.type === 'Identifier') return `${declarator.id.name}.${name}`;
    if (declarator.id.type !== 'ObjectPattern') continue;
    for (const property of declarator.id.properties) {
      if (
        property.type === 'Property' &&
        property.key.type === 'Identifier' &&
        property.key.name === name &&
        property.value.type === 'Identifier'
      )
        return property.value.name;
    }
  }
  return undefined;
}

/** The indentation (leading whitespace) of the line containing `offset`. */
export function indentationAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
}

/** Insert `names` after the last element of a list, one per line if the list is written so. */
function appendToList(text: string, listOpen: number, firstStart: number, lastEnd: number, names: string[], style: ImportStyle): RangeEdit {
  const multiline = text.slice(listOpen, firstStart).includes('\n');
  const separator = multiline ? `,${style.eol}${indentationAt(text, firstStart)}` : ', ';
  return { start: lastEnd, end: lastEnd, text: names.map((n) => `${separator}${n}`).join('') };
}

/** Where a new import/require line goes: after the last one, else after the directives, else before the first statement. */
function newDeclarationEdit(text: string, program: TSESTree.Program, declaration: string, style: ImportStyle): RangeEdit {
  const body = program.body;
  const isImportLike = style.module === 'esm' ? (s: TSESTree.Node) => s.type === 'ImportDeclaration' : isRequireDeclaration;
  const last = [...body].reverse().find(isImportLike);
  if (last) return { start: last.range[1], end: last.range[1], text: `${style.eol}${declaration}` };
  // Keep directives ('use strict') first.
  const directives = body.filter((s) => s.type === 'ExpressionStatement' && typeof s.directive === 'string');
  const lastDirective = directives[directives.length - 1];
  if (lastDirective) return { start: lastDirective.range[1], end: lastDirective.range[1], text: `${style.eol}${declaration}` };
  const first = body[0];
  if (!first)
    return {
      start: text.length,
      end: text.length,
      text: `${text.length > 0 && !text.endsWith('\n') ? style.eol : ''}${declaration}${style.eol}`,
    };
  const lineStart = text.lastIndexOf('\n', first.range[0] - 1) + 1;
  const gap = style.blankLineAfterImport === false ? '' : style.eol;
  return { start: lineStart, end: lineStart, text: `${declaration}${style.eol}${gap}` };
}

/** A string literal in the file's quote style. */
export function quoted(value: string, quote: "'" | '"'): string {
  const escaped = value.replace(/\\/g, '\\\\').split(quote).join(`\\${quote}`);
  return `${quote}${escaped}${quote}`;
}

/** Edits that make `wanted` available from `replica-guard` in this file (none when they already are). */
export function runtimeImportEdits(text: string, program: TSESTree.Program, style: ImportStyle, wanted: readonly string[]): RangeEdit[] {
  const missing = [...new Set(wanted)].filter((name) => existingRuntimeCallee(program, name) === undefined);
  if (missing.length === 0) return [];
  // Merge into an import or destructuring require that is already there.
  for (const declaration of runtimeImports(program)) {
    const named = declaration.specifiers.filter((s) => s.type === 'ImportSpecifier');
    if (named.length > 0) {
      const brace = text.lastIndexOf('{', named[0]!.range[0]);
      return [appendToList(text, brace, named[0]!.range[0], named[named.length - 1]!.range[1], missing, style)];
    }
  }
  const defaultOnly = runtimeImports(program).find((i) => i.specifiers.length === 1 && i.specifiers[0]!.type === 'ImportDefaultSpecifier');
  if (defaultOnly) {
    const end = defaultOnly.specifiers[0]!.range[1];
    return [{ start: end, end, text: `, { ${missing.join(', ')} }` }];
  }
  for (const declarator of runtimeRequires(program)) {
    const pattern = declarator.id;
    if (pattern.type !== 'ObjectPattern' || pattern.properties.length === 0 || !pattern.properties.every((p) => p.type === 'Property'))
      continue;
    const first = pattern.properties[0]!;
    const last = pattern.properties[pattern.properties.length - 1]!;
    return [appendToList(text, pattern.range[0], first.range[0], last.range[1], missing, style)];
  }
  const semi = style.semicolons ? ';' : '';
  const source = quoted(RUNTIME_MODULE, style.quote);
  const declaration =
    style.module === 'esm'
      ? `import { ${missing.join(', ')} } from ${source}${semi}`
      : `const { ${missing.join(', ')} } = require(${source})${semi}`;
  return [newDeclarationEdit(text, program, declaration, style)];
}

export interface RuntimeImport {
  /** How to call the export in this file: `claimPeriod`, an alias, `rg.claimPeriod`. */
  callee: string;
  /** Edits that add or merge the import; empty when it is already there. */
  fix: (fixer: RuleFixer) => RuleFix[];
}

/**
 * For a rule's suggestion: how to call `name` and the fix that imports it. The suggestion writes
 * semicolons and `\n`, in the quotes of the file's last import.
 */
const runtimeImportCache = new WeakMap<TSESTree.Program, Map<string, RuntimeImport>>();

export function runtimeImport(sourceCode: SourceCode, filename: string, name: string, sourceType?: string): RuntimeImport {
  // Asked once per finding: computed once per program (each answer scans the whole file).
  const program = sourceCode.ast;
  const cacheKey = `${filename}\0${name}\0${sourceType ?? ''}`;
  let cached = runtimeImportCache.get(program);
  if (!cached) runtimeImportCache.set(program, (cached = new Map()));
  const hit = cached.get(cacheKey);
  if (hit) return hit;
  const answer = computeRuntimeImport(sourceCode, filename, name, sourceType);
  cached.set(cacheKey, answer);
  return answer;
}

function computeRuntimeImport(sourceCode: SourceCode, filename: string, name: string, sourceType?: string): RuntimeImport {
  const program = sourceCode.ast;
  const existing = existingRuntimeCallee(program, name);
  if (existing !== undefined) return { callee: existing, fix: () => [] };
  const lastImport = [...program.body].reverse().find((s): s is TSESTree.ImportDeclaration => s.type === 'ImportDeclaration');
  const style: ImportStyle = {
    quote: lastImport && sourceCode.getText(lastImport.source).startsWith('"') ? '"' : "'",
    semicolons: true,
    eol: '\n',
    module: moduleSystemOf(filename, program, { sourceType }),
    blankLineAfterImport: false,
  };
  const edits = runtimeImportEdits(sourceCode.text, program, style, [name]);
  return { callee: name, fix: (fixer) => edits.map((edit) => fixer.replaceTextRange([edit.start, edit.end], edit.text)) };
}
