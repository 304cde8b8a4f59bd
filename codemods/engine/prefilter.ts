// What decides, before any parse, whether a file is worth parsing for a transform — the run's
// first pass over the files, in two steps, both on the text alone:
//
// 1. The transform's words (`prefilter`) and text check (`mayMatch`): no settings, no ESLint
//    configuration. A file no transform passes is done here: it is never parsed, and its ESLint
//    configuration is never looked up.
// 2. The rule's own pre-check: each rule's `detect` begins with a cheap test of the file's text and
//    returns no listeners when nothing in the file can make a finding. `mayReport` calls that
//    `detect` on a SourceCode that holds only the text (with the file's settings and options): a
//    rule that answers with no listeners, without asking for more, cannot report in this file. A
//    rule that asks for anything else — the tree, its tokens, scopes — stops there, and the file
//    is parsed. So the codemod skips exactly what the rules skip, and sharper rule pre-checks make
//    the codemod faster with no change here.
import { readFileSync } from 'node:fs';
import { applyDefaultOptions } from '../../rules/utils/create-rule.js';
import { wordPattern } from '../../analysis/source/word-pattern.js';
import { isBundledText } from '../../analysis/source/generated-file.js';
import { fileLimitsOf, generatedMarker, generatedReason, oversizeReason } from './file-limits.js';
import { errorMessage, type CodemodOptions, type FileOutcome, type FileResult } from './report.js';
import type { AnyTransform, RuleWithFacts } from './transform.js';

// `ignoreBOM` keeps a byte-order mark in the text, as `readFileSync(path, 'utf8')` does.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A file's text, or the outcome that says why it is not transformed (unreadable, not UTF-8). */
export function readSource(path: string): { text: string } | FileOutcome {
  try {
    const bytes = readFileSync(path);
    try {
      return { text: UTF8.decode(bytes) };
    } catch {
      return { path, skip: 'not UTF-8 (left as it is: rewriting it would replace bytes with U+FFFD)' };
    }
  } catch (error) {
    return { path, readError: errorMessage(error) };
  }
}

/** The result for a file left as it is. */
export const unchangedResult = (text: string): FileResult => ({ text, fixed: 0, fixedBy: new Map(), manual: [], leaseKeys: [] });

// One expression per word list: a single scan of the text instead of one `includes` per word
// (about 3× faster over a repository, where most files hold none of the words).
const prefilterPatterns = new WeakMap<readonly string[], RegExp>();
function mentionsAny(text: string, words: readonly string[]): boolean {
  let pattern = prefilterPatterns.get(words);
  if (!pattern) {
    pattern = wordPattern(words);
    prefilterPatterns.set(words, pattern);
  }
  return pattern.test(text);
}

/** The transforms whose words and text check `text` passes (step 1: no settings, no parse). */
export function textCandidates(text: string, transforms: readonly AnyTransform[]): AnyTransform[] {
  // ESLint drops a byte-order mark before the rules see the text; so do the checks.
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  return transforms.filter((t) => mentionsAny(body, t.prefilter) && (t.mayMatch?.(body) ?? true));
}

export interface TextPass {
  /** Files done in this pass, by path: unreadable, not UTF-8, or passed by no transform (unchanged). */
  done: Map<string, FileOutcome>;
  /** Files some transform may change, with their text, in discovery order. */
  candidates: Map<string, string>;
}

/**
 * Reads every file once and keeps those some transform's text pre-filter passes. A file above
 * the run's `maxFileSize` is skipped on its size alone, never read; a file some transform could
 * change whose header marks it generated is skipped unless `includeGenerated` (file-limits.ts).
 */
export function textPass(
  files: readonly string[],
  transforms: readonly AnyTransform[],
  options: Pick<CodemodOptions, 'maxFileSize' | 'includeGenerated'> = {},
): TextPass {
  const limits = fileLimitsOf(options);
  const done = new Map<string, FileOutcome>();
  const candidates = new Map<string, string>();
  for (const path of files) {
    const oversize = oversizeReason(path, limits);
    const source = oversize ? { path, skip: oversize } : readSource(path);
    if (!('text' in source)) done.set(path, source);
    // A bundle (minified, a Prisma runtime) is a file lint never reports (rules/utils/create-rule.ts): not parsed.
    else if (textCandidates(source.text, transforms).length === 0 || isBundledText(path, source.text))
      done.set(path, { path, original: source.text, result: unchangedResult(source.text) });
    else {
      const marker = limits.includeGenerated ? undefined : generatedMarker(source.text);
      if (marker) done.set(path, { path, skip: generatedReason(marker) });
      else candidates.set(path, source.text);
    }
  }
  return { done, candidates };
}

/** Thrown by the text-only SourceCode when a rule asks for more than the text: the file must be parsed. */
class NeedsParse extends Error {}

/** An object with only `members`: reading anything else throws `NeedsParse`. */
const only = (members: Record<string, unknown>): object =>
  new Proxy(members, {
    get(target, key) {
      if (typeof key === 'string' && Object.hasOwn(target, key)) return target[key];
      if (typeof key === 'symbol') return undefined;
      throw new NeedsParse(key);
    },
  });

export interface RuleRunFor {
  settings: Record<string, unknown>;
  /** The rule's options as the user configured them; undefined: its defaults. */
  options?: readonly unknown[];
  cwd: string;
}

/** Step 2: whether `rule`'s own pre-check lets `text` through (it asks for the tree or returns listeners). */
export function mayReport(rule: RuleWithFacts, path: string, text: string, run: RuleRunFor): boolean {
  // No comments are known: the rules' comment-free text is the whole text, which passes every
  // word test the code alone passes.
  const sourceCode = only({ text, ast: only({ comments: [] }) });
  const context = {
    id: rule.name,
    options: applyDefaultOptions(rule.defaultOptions ?? [], run.options ?? []),
    sourceCode,
    settings: run.settings,
    filename: path,
    physicalFilename: path,
    cwd: run.cwd,
    languageOptions: only({}),
  };
  let reported = false;
  try {
    const listeners = rule.detect(context as never, () => {
      reported = true;
    });
    return reported || Object.keys(listeners).length > 0;
  } catch {
    // `NeedsParse`, or a rule that does not expect a SourceCode without a tree: parse and see.
    return true;
  }
}
