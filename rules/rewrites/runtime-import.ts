// How a file reaches one of replica-guard's runtime exports, and the fix that makes it reachable:
// reuse an existing import (named, aliased, namespace, `require`, destructured `require`), merge
// into one, or add `import { x } from 'replica-guard'` (ESM) / `const { x } = require(…)` (CJS).
import type { TSESTree } from '@typescript-eslint/utils';
import type { RuleFix, RuleFixer, SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { RUNTIME_MODULE } from '../../src/knowledge/guards.js';

export interface RuntimeImport {
  /** How to call the export in this file: `claimPeriod`, an alias, `rg.claimPeriod`. */
  callee: string;
  /** Edits that add or merge the import; empty when it is already there. */
  fix: (fixer: RuleFixer) => RuleFix[];
}

function isRuntimeRequire(node: TSESTree.Node | null | undefined): boolean {
  return (
    node?.type === 'CallExpression' &&
    node.callee.type === 'Identifier' &&
    node.callee.name === 'require' &&
    node.arguments.length === 1 &&
    node.arguments[0]!.type === 'Literal' &&
    node.arguments[0]!.value === RUNTIME_MODULE
  );
}

function importedName(specifier: TSESTree.ImportSpecifier): string {
  return specifier.imported.type === 'Identifier' ? specifier.imported.name : String(specifier.imported.value);
}

/** Whether the file is CommonJS: it has no `import` and requires something at the top level, or is `.cjs`/`.cts`. */
export function isCommonJs(sourceCode: SourceCode, filename: string, sourceType?: string): boolean {
  const program = sourceCode.ast;
  if (sourceType === 'commonjs' || sourceType === 'script') return !program.body.some((s) => s.type === 'ImportDeclaration');
  if (
    program.body.some((s) => s.type === 'ImportDeclaration' || s.type === 'ExportNamedDeclaration' || s.type === 'ExportDefaultDeclaration')
  )
    return false;
  if (/\.c[jt]s$/.test(filename) || (program.sourceType as string) === 'script' || (program.sourceType as string) === 'commonjs')
    return true;
  return program.body.some(
    (s) =>
      s.type === 'VariableDeclaration' &&
      s.declarations.some(
        (d) => d.init?.type === 'CallExpression' && d.init.callee.type === 'Identifier' && d.init.callee.name === 'require',
      ),
  );
}

export function runtimeImport(sourceCode: SourceCode, filename: string, name: string, sourceType?: string): RuntimeImport {
  const program = sourceCode.ast;
  const none = (): RuleFix[] => [];
  let mergeInto: ((fixer: RuleFixer) => RuleFix[]) | undefined;
  let lastImport: TSESTree.ImportDeclaration | undefined;
  let lastRequire: TSESTree.VariableDeclaration | undefined;

  for (const statement of program.body) {
    if (statement.type === 'ImportDeclaration') {
      lastImport = statement;
      if (statement.source.value !== RUNTIME_MODULE || statement.importKind === 'type') continue;
      for (const specifier of statement.specifiers) {
        if (specifier.type === 'ImportNamespaceSpecifier') return { callee: `${specifier.local.name}.${name}`, fix: none };
        if (specifier.type === 'ImportSpecifier' && specifier.importKind !== 'type' && importedName(specifier) === name) {
          return { callee: specifier.local.name, fix: none };
        }
      }
      const named = statement.specifiers.filter((s): s is TSESTree.ImportSpecifier => s.type === 'ImportSpecifier');
      const last = named[named.length - 1];
      if (last && !mergeInto) mergeInto = (fixer) => [fixer.insertTextAfter(last, `, ${name}`)];
      continue;
    }
    if (statement.type === 'VariableDeclaration') {
      for (const declarator of statement.declarations) {
        const init = declarator.init?.type === 'MemberExpression' ? declarator.init.object : declarator.init;
        if (init?.type === 'CallExpression' && init.callee.type === 'Identifier' && init.callee.name === 'require') lastRequire = statement;
        if (!isRuntimeRequire(declarator.init)) continue;
        if (declarator.id.type === 'Identifier') return { callee: `${declarator.id.name}.${name}`, fix: none };
        if (declarator.id.type === 'ObjectPattern') {
          for (const property of declarator.id.properties) {
            if (
              property.type === 'Property' &&
              property.key.type === 'Identifier' &&
              property.key.name === name &&
              property.value.type === 'Identifier'
            ) {
              return { callee: property.value.name, fix: none };
            }
          }
          const last = declarator.id.properties[declarator.id.properties.length - 1];
          if (last && last.type === 'Property' && !mergeInto) mergeInto = (fixer) => [fixer.insertTextAfter(last, `, ${name}`)];
        }
      }
    }
  }
  if (mergeInto) return { callee: name, fix: mergeInto };

  const cjs = isCommonJs(sourceCode, filename, sourceType);
  const anchor = cjs ? lastRequire : lastImport;
  const quoteChar = lastImport && sourceCode.getText(lastImport.source).startsWith('"') ? '"' : "'";
  const specifier = `${quoteChar}${RUNTIME_MODULE}${quoteChar}`;
  const line = cjs ? `const { ${name} } = require(${specifier});` : `import { ${name} } from ${specifier};`;
  return {
    callee: name,
    fix: (fixer) => {
      if (anchor) return [fixer.insertTextAfter(anchor, `\n${line}`)];
      // After directives ('use strict') so they stay directives.
      const directives = program.body.filter(
        (s) => s.type === 'ExpressionStatement' && typeof (s as TSESTree.ExpressionStatement).directive === 'string',
      );
      const lastDirective = directives[directives.length - 1];
      if (lastDirective) return [fixer.insertTextAfter(lastDirective, `\n${line}`)];
      const first = program.body[0];
      return first ? [fixer.insertTextBefore(first, `${line}\n`)] : [fixer.insertTextAfterRange([0, 0], `${line}\n`)];
    },
  };
}
