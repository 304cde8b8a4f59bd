// Runs the rules' own `detect` functions through ESLint's Linter — the same parser, the same
// scope analysis, the same code as the lint rule — and collects their findings. This is the only
// detection the codemod has.
import * as tsParser from '@typescript-eslint/parser';
import { Linter, type Rule, type SourceCode } from 'eslint';
import { dirname } from 'node:path';
import type { TSESTree } from '@typescript-eslint/utils';
import { applyDefaultOptions, type Finding, type ReplicaGuardRule } from '../../rules/utils/create-rule.js';

export const SOURCE_EXTENSIONS = ['ts', 'tsx', 'mts', 'cts', 'js', 'jsx', 'mjs', 'cjs'] as const;
const FILES = [`**/*.{${SOURCE_EXTENSIONS.join(',')}}`];
const PLUGIN = 'replica-codemod';
const NODE_GLOBALS = Object.fromEntries(
  [
    'require',
    'module',
    'exports',
    '__dirname',
    '__filename',
    'process',
    'setInterval',
    'setTimeout',
    'setImmediate',
    'clearInterval',
    'clearTimeout',
  ].map((name) => [name, 'readonly' as const]),
);

export class ParseError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
    this.name = 'ParseError';
  }
}

export interface Detection {
  ast: TSESTree.Program;
  sourceCode: SourceCode;
  /** Findings by rule name, in report order. */
  findings: Map<string, Finding[]>;
}

export type SourceType = 'module' | 'commonjs';

/** `module` or `commonjs` for the parser, from the extension, else the package's `type`. */
export function sourceTypeOf(path: string, packageType: SourceType): SourceType {
  if (/\.(mjs|mts)$/.test(path)) return 'module';
  if (/\.(cjs|cts)$/.test(path)) return 'commonjs';
  // TypeScript sources are compiled; whatever they emit, they are written as modules.
  if (/\.(ts|tsx)$/.test(path)) return 'module';
  return packageType;
}

type AnyRule = ReplicaGuardRule<string, readonly unknown[], unknown>;

/**
 * Parses `text` as `path` and runs every rule's detection on it. Throws `ParseError` when the
 * text does not parse.
 */
export function runDetection(
  path: string,
  text: string,
  rules: readonly AnyRule[],
  options: { packageType: SourceType; settings?: Record<string, unknown> },
): Detection {
  const findings = new Map<string, Finding[]>(rules.map((rule) => [rule.name, []]));
  const pluginRules: Record<string, Rule.RuleModule> = {};
  for (const rule of rules) {
    const sink = findings.get(rule.name) ?? [];
    pluginRules[rule.name] = {
      meta: rule.meta as unknown as Rule.RuleMetaData,
      create(context) {
        const merged = applyDefaultOptions(rule.defaultOptions ?? [], context.options);
        const withDefaults = Object.create(context, { options: { value: merged } }) as never;
        return rule.detect(withDefaults, (finding) => sink.push(finding)) as unknown as Rule.RuleListener;
      },
    };
  }
  const linter = new Linter({ configType: 'flat', cwd: dirname(path) });
  const sourceType = sourceTypeOf(path, options.packageType);
  // JavaScript goes through espree, ESLint's own parser (what a project's config uses for it, and
  // about three times faster than typescript-estree); TypeScript, and JavaScript espree rejects,
  // through @typescript-eslint/parser.
  const isTypeScript = /\.(ts|tsx|mts|cts)$/.test(path);
  const verify = (parser: Linter.Parser | undefined): Linter.LintMessage[] =>
    linter.verify(
      text,
      [
        {
          files: FILES,
          languageOptions: {
            ...(parser ? { parser } : {}),
            sourceType,
            ecmaVersion: 'latest',
            // What a Node project's config declares (`globals.node`): CommonJS names and the timers.
            globals: NODE_GLOBALS,
            // JSX is common in plain .js files; only .ts/.mts/.cts must not (`<T>x` is a cast there).
            parserOptions: { ecmaFeatures: { jsx: !/\.(ts|mts|cts)$/.test(path) } },
          },
          linterOptions: { reportUnusedDisableDirectives: 'off' },
          plugins: { [PLUGIN]: { rules: pluginRules } },
          rules: Object.fromEntries(rules.map((rule) => [`${PLUGIN}/${rule.name}`, 'error' as const])),
          settings: options.settings ?? {},
        },
      ],
      { filename: path },
    );
  let messages = verify(isTypeScript ? (tsParser as unknown as Linter.Parser) : undefined);
  if (!isTypeScript && messages.some((m) => m.fatal)) {
    for (const list of findings.values()) list.length = 0;
    messages = verify(tsParser as unknown as Linter.Parser);
  }
  const fatal = messages.find((m) => m.fatal);
  if (fatal) throw new ParseError(`${fatal.message} (${fatal.line}:${fatal.column})`, fatal.line, fatal.column);
  // A rule that throws surfaces as a linter exception, which the caller reports per file.
  const sourceCode = linter.getSourceCode();
  return { ast: sourceCode.ast as unknown as TSESTree.Program, sourceCode, findings };
}
