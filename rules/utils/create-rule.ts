// One way to build a rule: the docs URL comes from the name, and the rule's detection is a
// `detect` function that the codemod engine can run on its own. The ESLint rule is only
// "detect, then report each finding"; the codemod is "detect, then rewrite each finding".
import type { JSONSchema4 } from '@typescript-eslint/utils/json-schema';
import type { RuleListener, RuleModule, ReportDescriptor } from '@typescript-eslint/utils/ts-eslint';
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../../analysis/detect-context.js';
import { isGeneratedFile } from '../../analysis/source/generated-file.js';

export type { DetectContext } from '../../analysis/detect-context.js';

export const REPO_URL = 'https://github.com/replica-guard/replica-guard';

export const docsUrl = (name: string): string => `${REPO_URL}/blob/main/docs/rules/${name}.md`;

export interface ReplicaGuardDocs {
  description: string;
  /** In the `recommended` config. */
  recommended: boolean;
  /** In the `strict` config (a superset of recommended). */
  strict?: boolean;
}

/**
 * One problem a rule found, with the facts a rewrite needs. The rule reports `messageId`/`data`
 * at `node` (or `loc`); a codemod reads `facts`.
 */
export interface Finding<MessageIds extends string = string, Facts = unknown> {
  messageId: MessageIds;
  data?: Record<string, string | number>;
  node: TSESTree.Node | TSESTree.Token;
  /** A narrower location than `node` (for example a SQL function name inside a string). */
  loc?: TSESTree.SourceLocation;
  /** What a codemod needs to rewrite this finding. */
  facts: Facts;
  /** ESLint suggestions (never autofixes: every rewrite changes behaviour). */
  suggest?: ReportDescriptor<MessageIds>['suggest'];
}

export type Detect<MessageIds extends string, Options extends readonly unknown[], Facts> = (
  context: DetectContext<MessageIds, Options>,
  report: (finding: Finding<MessageIds, Facts>) => void,
) => RuleListener;

export interface RuleDefinition<MessageIds extends string, Options extends readonly unknown[], Facts> {
  name: string;
  meta: {
    type: 'problem' | 'suggestion' | 'layout';
    docs: ReplicaGuardDocs;
    messages: Record<MessageIds, string>;
    schema: JSONSchema4[];
    hasSuggestions?: boolean;
    fixable?: 'code' | 'whitespace';
    defaultOptions?: Options;
  };
  defaultOptions: Options;
  detect: Detect<MessageIds, Options, Facts>;
}

export type ReplicaGuardRule<
  MessageIds extends string = string,
  Options extends readonly unknown[] = readonly unknown[],
  Facts = unknown,
> = RuleModule<MessageIds, Options, ReplicaGuardDocs> & {
  name: string;
  /** The detection the codemod engine reuses. Options arrive already merged with defaults. */
  detect: Detect<MessageIds, Options, Facts>;
};

/** Any rule, whatever its messages, options and facts (the plugin's registry type). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- options are contravariant in `detect`; the registry only reads meta and create.
export type AnyReplicaGuardRule = ReplicaGuardRule<string, any, any>;

/** Deep-merges user options over defaults the way typescript-eslint's RuleCreator does. */
export function applyDefaultOptions<Options extends readonly unknown[]>(defaults: Options, user: readonly unknown[]): Options {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const merge = (a: unknown, b: unknown): unknown => {
    if (!isObject(a) || !isObject(b)) return b === undefined ? a : b;
    const out: Record<string, unknown> = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = merge(a[k], v);
    return out;
  };
  const length = Math.max(defaults.length, user.length);
  return Array.from({ length }, (_, i) => merge(defaults[i], user[i])) as unknown as Options;
}

export function createRule<MessageIds extends string, Options extends readonly unknown[], Facts = unknown>(
  definition: RuleDefinition<MessageIds, Options, Facts>,
): ReplicaGuardRule<MessageIds, Options, Facts> {
  const { name, meta, defaultOptions, detect } = definition;
  return {
    name,
    meta: { ...meta, docs: { ...meta.docs, url: docsUrl(name) }, defaultOptions } as ReplicaGuardRule<MessageIds, Options>['meta'],
    defaultOptions,
    detect,
    create(context) {
      // Generated and bundled code (a Prisma runtime, a minified bundle, a generator's output) is no
      // rule's business: decided once per file for all rules, before any rule's own first test. The
      // codemod runs `detect` itself and decides on generated files by their header (`--include-generated`).
      if (isGeneratedFile(context)) return {};
      // ESLint (>= 9.15, the peer range) has merged `meta.defaultOptions` into `context.options`.
      return detect(context, (finding) => {
        const descriptor = {
          messageId: finding.messageId,
          data: finding.data,
          suggest: finding.suggest,
          ...(finding.loc ? { loc: finding.loc } : { node: finding.node }),
        } as ReportDescriptor<MessageIds>;
        context.report(descriptor);
      });
    },
  };
}
