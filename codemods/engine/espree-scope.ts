// The codemod's parser for JavaScript: ESLint's own espree, and the same scope analysis ESLint
// runs after it (eslint-scope, with ESLint's options), set up so that it does not copy the visitor
// keys for every pattern.
//
// ESLint hands eslint-scope its visitor keys (`childVisitorKeys`), and esrecurse merges them into
// a fresh object of some 180 entries in every visitor it builds — one per function parameter,
// declarator and assignment target. On the no-op pass over a repository that copying was a tenth
// of all CPU time, and more in the garbage collector. Without `childVisitorKeys` esrecurse reads
// estraverse's keys as they are, and asks `fallback` for a node type it does not know: answering
// with ESLint's keys there gives every node the children ESLint's merged table gives it, except
// where the two tables name different children for one type. Of those, only `ImportExpression`
// (`import(source, options)`: estraverse lists `source` alone) reaches eslint-scope's default
// visit; the others have handlers that never read the difference (exports with a `source` are not
// visited, `ExportSpecifier` and imports have their own). So a file with a dynamic import keeps
// ESLint's own call, and every other file gets the same scopes, variables and references.
import { createRequire } from 'node:module';
import type { FlatConfig } from '@typescript-eslint/utils/ts-eslint';

interface EspreeToken {
  type: string;
  value: string;
}
interface EslintScope {
  analyze(ast: unknown, options: Record<string, unknown>): unknown;
}
interface VisitorKeys {
  KEYS: Record<string, readonly string[]>;
  getKeys(node: object): readonly string[];
}

// ESLint's own copies of espree, eslint-scope and eslint-visitor-keys: the versions its default
// JavaScript path uses, whatever else is installed.
const fromEslint = createRequire(createRequire(import.meta.url).resolve('eslint'));
const espree = fromEslint('espree') as { parse(text: string, options: unknown): { tokens: EspreeToken[] } };
const eslintScope = fromEslint('eslint-scope') as EslintScope;
const visitorKeys = fromEslint('eslint-visitor-keys') as VisitorKeys;

/** The keys ESLint's merged table would give a node esrecurse's own table does not know. */
const eslintKeysOf = (node: { type: string }): readonly string[] => visitorKeys.KEYS[node.type] ?? visitorKeys.getKeys(node);

/** Whether the file holds a dynamic `import(…)`: the keyword followed by a parenthesis, in code (not in a comment or string). */
export function hasImportCall(tokens: readonly EspreeToken[]): boolean {
  for (let i = 0; i + 1 < tokens.length; i++) {
    if (tokens[i]!.type === 'Keyword' && tokens[i]!.value === 'import' && tokens[i + 1]!.value === '(') return true;
  }
  return false;
}

interface ParserOptions {
  ecmaVersion?: unknown;
  sourceType?: string;
  ecmaFeatures?: { globalReturn?: boolean; impliedStrict?: boolean; jsx?: boolean };
}

/** eslint-scope's options exactly as ESLint's `analyzeScope` builds them from the same language options. */
export function scopeOptions(options: ParserOptions, copyKeys: boolean): Record<string, unknown> {
  const features = options.ecmaFeatures ?? {};
  const ecmaVersion = options.ecmaVersion ?? 5;
  return {
    ignoreEval: true,
    nodejsScope: features.globalReturn,
    impliedStrict: features.impliedStrict,
    ecmaVersion: typeof ecmaVersion === 'number' ? ecmaVersion : 6,
    sourceType: options.sourceType ?? 'script',
    ...(copyKeys ? { childVisitorKeys: visitorKeys.KEYS, fallback: visitorKeys.getKeys } : { fallback: eslintKeysOf }),
  };
}

/**
 * espree with the scope analysis done here. Marked as espree for ESLint (the symbol its
 * RuleTester uses), so ESLint prepares the language options exactly as for its default parser.
 * The rules parse the project modules a file imports with the file's own parser: asked by them
 * (not by ESLint, which asks for a scope manager), it answers as espree itself would — the tree
 * alone, and nothing for TypeScript — so their summaries are those of ESLint's default parser.
 */
export const espreeWithScope = {
  meta: { name: 'replica-guard/espree-scope' },
  [Symbol.for('eslint.RuleTester.parser')]: espree,
  parseForESLint(text: string, options: ParserOptions & { eslintScopeManager?: boolean; filePath?: string }) {
    if (options.eslintScopeManager !== true) {
      if (/\.[cm]?tsx?$/.test(options.filePath ?? '')) throw new Error('espree does not parse TypeScript');
      return { ast: espree.parse(text, options) };
    }
    const ast = espree.parse(text, options);
    const scopeManager = eslintScope.analyze(ast, scopeOptions(options, hasImportCall(ast.tokens)));
    return { ast, scopeManager, visitorKeys: visitorKeys.KEYS };
  },
} as unknown as FlatConfig.Parser;
