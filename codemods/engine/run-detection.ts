// Runs the rules' own `detect` functions through ESLint's Linter — the same parser, the same
// scope analysis, the same code as the lint rule — and collects their findings. This is the only
// detection the codemod has. typescript-eslint's typing of ESLint is the engine's one view of it:
// the SourceCode a transform receives is the one a rule's `detect` receives.
import { Linter as ESLintLinter } from 'eslint';
import { createRequire } from 'node:module';
import type { FlatConfig, Linter, RuleModule, SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { dirname } from 'node:path';
import type { TSESTree } from '@typescript-eslint/utils';
import { applyDefaultOptions, type AnyReplicaGuardRule, type Finding } from '../../rules/utils/create-rule.js';
import { moduleSystemOf } from '../../rules/rewrites/runtime-import.js';
import type { RuleWithFacts } from './transform.js';
import { PLUGIN_NAME } from '../../rules/utils/plugin-meta.js';
import { forgetLastFile } from '../../analysis/source/last-file-cache.js';
import { espreeWithScope } from './espree-scope.js';

// @typescript-eslint/parser (and TypeScript under it, the largest module the codemod would load),
// loaded the first time a file needs it: a run that parses no TypeScript never loads it.
const requireHere = createRequire(import.meta.url);
let typescriptParser: FlatConfig.Parser | undefined;
const tsParser = (): FlatConfig.Parser => (typescriptParser ??= requireHere('@typescript-eslint/parser') as FlatConfig.Parser);

export const SOURCE_EXTENSIONS = ['ts', 'tsx', 'mts', 'cts', 'js', 'jsx', 'mjs', 'cjs'] as const;
const FILES = [`**/*.{${SOURCE_EXTENSIONS.join(',')}}`];

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
  /** Findings by rule name, in report order; a finding an `eslint-disable` comment covers is not here. */
  findings: Map<string, Finding[]>;
}

export type SourceType = 'module' | 'commonjs';

/** `module` or `commonjs` for the parser: the extension, else TypeScript, else the package's `type`. */
export function sourceTypeOf(path: string, packageType: SourceType): SourceType {
  return moduleSystemOf(path, undefined, { packageType }) === 'esm' ? 'module' : 'commonjs';
}

/** How one rule runs: its options as the user configured them (defaults when undefined). */
export interface RuleRun {
  rule: AnyReplicaGuardRule;
  options?: readonly unknown[];
}

// Where a finding is reported, as ESLint's message says it: what an `eslint-disable` comment
// suppresses is matched back to the finding by rule, message and range.
const placeOf = (ruleId: string, messageId: string, loc: TSESTree.SourceLocation): string =>
  `${ruleId}|${messageId}|${loc.start.line}:${loc.start.column + 1}|${loc.end.line}:${loc.end.column + 1}`;

const messagePlace = (m: Linter.LintMessage): string =>
  placeOf(m.ruleId ?? '', m.messageId ?? '', {
    start: { line: m.line, column: m.column - 1 },
    end: { line: m.endLine ?? m.line, column: (m.endColumn ?? m.column) - 1 },
  });

/**
 * Parses `text` as `path` and runs every rule's detection on it. Throws `ParseError` when the
 * text does not parse.
 */
export function runDetection(
  path: string,
  text: string,
  runs: readonly RuleRun[],
  options: {
    packageType: SourceType;
    settings?: Record<string, unknown>;
    /** The namespace the rules have in the user's config, so `eslint-disable` comments naming them apply. */
    prefix?: string;
  },
): Detection {
  const PLUGIN = options.prefix ?? PLUGIN_NAME;
  const reported = new Map<string, Array<{ finding: Finding; place: string }>>(runs.map(({ rule }) => [rule.name, []]));
  const pluginRules: Record<string, RuleModule<string, unknown[]>> = {};
  for (const { rule, options: configured } of runs) {
    const sink = reported.get(rule.name) ?? [];
    const ruleId = `${PLUGIN}/${rule.name}`;
    pluginRules[rule.name] = {
      meta: rule.meta,
      defaultOptions: [],
      create(context) {
        const merged = applyDefaultOptions(rule.defaultOptions ?? [], configured ?? context.options);
        const detectContext = {
          id: context.id,
          options: merged,
          sourceCode: context.sourceCode,
          settings: context.settings,
          filename: context.filename,
          physicalFilename: context.physicalFilename,
          cwd: context.cwd,
          languageOptions: context.languageOptions,
        };
        return rule.detect(detectContext, (finding) => {
          const loc = finding.loc ?? finding.node.loc;
          sink.push({ finding, place: placeOf(ruleId, finding.messageId, loc) });
          context.report({ messageId: finding.messageId, data: finding.data, loc });
        });
      },
    };
  }
  // ESLint's own Linter seen through typescript-eslint's types (the engine's one view of ESLint).
  // Importing typescript-eslint's Linter value instead would bundle its CommonJS wrapper, whose
  // `require('eslint')` an ES module build cannot run.
  const linter = new ESLintLinter({ configType: 'flat', cwd: dirname(path) }) as unknown as Linter;
  const sourceType = sourceTypeOf(path, options.packageType);
  // JavaScript goes through espree, ESLint's own parser (what a project's config uses for it, and
  // about three times faster than typescript-estree), with ESLint's scope analysis done without
  // its per-visitor copying (espree-scope.ts); TypeScript, and JavaScript espree rejects, through
  // @typescript-eslint/parser.
  const isTypeScript = /\.(ts|tsx|mts|cts)$/.test(path);
  const verify = (parser: FlatConfig.Parser): Linter.LintMessage[] =>
    linter.verify(
      text,
      [
        {
          files: FILES,
          languageOptions: {
            parser,
            sourceType,
            ecmaVersion: 'latest',
            // What a Node project's config declares (`globals.node`): CommonJS names and the timers.
            globals: NODE_GLOBALS,
            // JSX is common in plain .js files; only .ts/.mts/.cts must not (`<T>x` is a cast there).
            // No TypeScript node maps: the rules run without type information, and the maps cost memory on big files.
            parserOptions: { ecmaFeatures: { jsx: !/\.(ts|mts|cts)$/.test(path) }, preserveNodeMaps: false },
          },
          linterOptions: { reportUnusedDisableDirectives: 'off' },
          plugins: { [PLUGIN]: { rules: pluginRules } },
          rules: Object.fromEntries(runs.map(({ rule }) => [`${PLUGIN}/${rule.name}`, 'error' as const])),
          settings: options.settings ?? {},
        },
      ],
      { filename: path },
    );
  // The rules' per-file slots still hold the previous tree (the text before the edits, or what a
  // transform asked about it): dropped before this parse, and after it, so at most one tree of a
  // big file is alive at a time.
  forgetLastFile();
  let messages = verify(isTypeScript ? tsParser() : espreeWithScope);
  if (!isTypeScript && messages.some((m) => m.fatal)) {
    for (const list of reported.values()) list.length = 0;
    messages = verify(tsParser());
  }
  forgetLastFile();
  const fatal = messages.find((m) => m.fatal);
  if (fatal) throw new ParseError(`${fatal.message} (${fatal.line}:${fatal.column})`, fatal.line, fatal.column);
  // A rule that throws surfaces as a linter exception, which the caller reports per file.
  // What lint would show is what the codemod acts on: a finding a disable comment covers is dropped.
  const shown = new Map<string, number>();
  for (const message of messages) shown.set(messagePlace(message), (shown.get(messagePlace(message)) ?? 0) + 1);
  const findings = new Map<string, Finding[]>();
  for (const [name, list] of reported) {
    findings.set(
      name,
      list.flatMap(({ finding, place }) => {
        const left = shown.get(place) ?? 0;
        if (left === 0) return [];
        shown.set(place, left - 1);
        return [finding];
      }),
    );
  }
  const sourceCode = linter.getSourceCode();
  return { ast: sourceCode.ast, sourceCode, findings };
}

/** One rule's findings in a detection, typed with that rule's facts. */
export function findingsOf<Facts>(detection: Detection, rule: RuleWithFacts<Facts>): Array<Finding<string, Facts>> {
  // The map holds, under each rule's name, what that rule's own `detect` reported.
  return (detection.findings.get(rule.name) ?? []) as Array<Finding<string, Facts>>;
}
