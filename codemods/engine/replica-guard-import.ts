// Adds names to the file's `replica-guard` import (ESM) or require (CommonJS), merging into an
// existing one when there is one, in the file's own quotes, semicolons and line endings.
import type { TSESTree } from '@typescript-eslint/utils';
import { indentationAt, quoted, type FileStyle } from './file-style.js';
import type { TextEdit } from './transform.js';

export const RUNTIME_MODULE = 'replica-guard';

function isRuntimeRequire(node: TSESTree.Node | null | undefined): boolean {
  return (
    node?.type === 'CallExpression' &&
    node.callee.type === 'Identifier' &&
    node.callee.name === 'require' &&
    node.arguments[0]?.type === 'Literal' &&
    node.arguments[0].value === RUNTIME_MODULE
  );
}

function isRequireDeclaration(statement: TSESTree.Node): boolean {
  if (statement.type !== 'VariableDeclaration') return false;
  return statement.declarations.some((d) => {
    const init = d.init?.type === 'MemberExpression' ? d.init.object : d.init;
    return init?.type === 'CallExpression' && init.callee.type === 'Identifier' && init.callee.name === 'require';
  });
}

/** Insert `addition` into a list whose last element ends at `lastEnd`, one per line if the list is. */
function appendToList(text: string, listOpen: number, firstStart: number, lastEnd: number, names: string[], style: FileStyle): TextEdit {
  const multiline = text.slice(listOpen, firstStart).includes('\n');
  const separator = multiline ? `,${style.eol}${indentationAt(text, firstStart)}` : ', ';
  return { start: lastEnd, end: lastEnd, text: names.map((n) => `${separator}${n}`).join('') };
}

/** Where a new import/require line goes: after the last one, else before the first statement. */
function newDeclarationEdit(
  text: string,
  program: TSESTree.Program,
  declaration: string,
  style: FileStyle,
  isImportLike: (s: TSESTree.Node) => boolean,
): TextEdit {
  const body = program.body;
  const last = [...body].reverse().find(isImportLike);
  if (last) return { start: last.range[1], end: last.range[1], text: `${style.eol}${declaration}` };
  // Keep directives ('use strict') first.
  const directives = body.filter(
    (s) => s.type === 'ExpressionStatement' && typeof (s as TSESTree.ExpressionStatement).directive === 'string',
  );
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
  return { start: lineStart, end: lineStart, text: `${declaration}${style.eol}${style.eol}` };
}

/** Edits that make `names` available from `replica-guard` in this file (none if they already are). */
export function replicaGuardImportEdits(text: string, program: TSESTree.Program, style: FileStyle, wanted: readonly string[]): TextEdit[] {
  const names = [...new Set(wanted)];
  if (names.length === 0) return [];
  const semi = style.semicolons ? ';' : '';
  const source = quoted(RUNTIME_MODULE, style.quote);

  if (style.module === 'esm') {
    const imports = program.body.filter(
      (s): s is TSESTree.ImportDeclaration =>
        s.type === 'ImportDeclaration' && s.source.value === RUNTIME_MODULE && s.importKind !== 'type',
    );
    const have = new Set(
      imports.flatMap((i) =>
        i.specifiers.flatMap((s) =>
          s.type === 'ImportSpecifier' && s.importKind !== 'type'
            ? [s.local.name, s.imported.type === 'Identifier' ? s.imported.name : String(s.imported.value)]
            : [],
        ),
      ),
    );
    const missing = names.filter((n) => !have.has(n));
    if (missing.length === 0) return [];
    const withNamed = imports.find((i) => i.specifiers.some((s) => s.type === 'ImportSpecifier'));
    if (withNamed) {
      const named = withNamed.specifiers.filter((s) => s.type === 'ImportSpecifier');
      const brace = text.lastIndexOf('{', named[0]!.range[0]);
      return [appendToList(text, brace, named[0]!.range[0], named[named.length - 1]!.range[1], missing, style)];
    }
    const defaultOnly = imports.find((i) => i.specifiers.length === 1 && i.specifiers[0]!.type === 'ImportDefaultSpecifier');
    if (defaultOnly) {
      const end = defaultOnly.specifiers[0]!.range[1];
      return [{ start: end, end, text: `, { ${missing.join(', ')} }` }];
    }
    return [
      newDeclarationEdit(
        text,
        program,
        `import { ${missing.join(', ')} } from ${source}${semi}`,
        style,
        (s) => s.type === 'ImportDeclaration',
      ),
    ];
  }

  const patterns: TSESTree.ObjectPattern[] = [];
  for (const statement of program.body) {
    if (statement.type !== 'VariableDeclaration') continue;
    for (const d of statement.declarations) if (d.id.type === 'ObjectPattern' && isRuntimeRequire(d.init)) patterns.push(d.id);
  }
  const have = new Set(
    patterns.flatMap((p) =>
      p.properties.flatMap((prop) =>
        prop.type === 'Property' && prop.value.type === 'Identifier'
          ? [prop.value.name, prop.key.type === 'Identifier' ? prop.key.name : prop.value.name]
          : [],
      ),
    ),
  );
  const missing = names.filter((n) => !have.has(n));
  if (missing.length === 0) return [];
  const pattern = patterns.find((p) => p.properties.length > 0 && p.properties.every((prop) => prop.type === 'Property'));
  if (pattern) {
    const first = pattern.properties[0]!;
    const last = pattern.properties[pattern.properties.length - 1]!;
    return [appendToList(text, pattern.range[0], first.range[0], last.range[1], missing, style)];
  }
  return [newDeclarationEdit(text, program, `const { ${missing.join(', ')} } = require(${source})${semi}`, style, isRequireDeclaration)];
}
