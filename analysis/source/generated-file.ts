// Whether a file is generated or bundled code (src/knowledge/generated-files.ts): every rule skips
// it, decided once per file before any rule's own test (rules/utils/create-rule.ts); the codemod
// names a generator's marker in its header (codemods/engine/file-limits.ts). Cheap: the path, the
// comments the text opens with, and its line lengths (ESLint's line index, built at the parse).
import {
  GENERATED_BANNER,
  GENERATED_PATH,
  GENERATOR_MARKERS,
  MINIFIED_AVERAGE_LINE,
  MINIFIED_LONGEST_LINE,
} from '../../src/knowledge/generated-files.js';
import { lastFileCache } from './last-file-cache.js';

/** How far into a file its header is looked for: a generator writes its marker at the top. */
const HEADER_LIMIT = 8 * 1024;

/**
 * The file's header: the comments before its first statement (after a byte-order mark, a `#!`
 * line and `'use strict'` directives), within the first 8 kB. Only comments count: a marker
 * word in code or in a string is not a marker.
 */
export function headerComments(text: string): string[] {
  const head = text.slice(0, HEADER_LIMIT);
  const comments: string[] = [];
  let at = head.startsWith('\uFEFF') ? 1 : 0;
  if (head.startsWith('#!', at)) at = head.indexOf('\n', at) < 0 ? head.length : head.indexOf('\n', at);
  const skip = /\s+|(['"])use strict\1;?/y;
  for (;;) {
    skip.lastIndex = at;
    while (skip.test(head)) at = skip.lastIndex;
    if (head.startsWith('//', at)) {
      const end = head.indexOf('\n', at);
      comments.push(head.slice(at, end < 0 ? head.length : end));
      at = end < 0 ? head.length : end;
    } else if (head.startsWith('/*', at)) {
      const end = head.indexOf('*/', at + 2);
      comments.push(head.slice(at, end < 0 ? head.length : end + 2));
      at = end < 0 ? head.length : end + 2;
    } else {
      return comments;
    }
  }
}

/** The generator's marker in header comments, by name (`@generated`, `auto-generated`); undefined when there is none. */
export function generatorMarkerIn(comments: readonly string[]): string | undefined {
  for (const [pattern, name] of GENERATOR_MARKERS) if (comments.some((comment) => pattern.test(comment))) return name;
  return undefined;
}

/** A line that opens a comment (`/*`, `//`, ` * …`): a long one is a note or a licence, not minified code. */
const COMMENT_LINE = /^\s*(?:\/[/*]|\*)/;

/** Where each line of `text` starts (ESLint's `lineStartIndices`, for a text not parsed). */
function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

/** Whether the text's lines are a minified bundle's: long on average, and one very long. `lineStarts`: ESLint's index, when parsed. */
function isMinified(text: string, lineStarts?: readonly number[]): boolean {
  if (text.length < MINIFIED_LONGEST_LINE) return false;
  const starts = lineStarts ?? lineStartsOf(text);
  if (text.length / starts.length < MINIFIED_AVERAGE_LINE) return false;
  for (let i = 0; i < starts.length; i++)
    if ((starts[i + 1] ?? text.length) - starts[i]! >= MINIFIED_LONGEST_LINE && !COMMENT_LINE.test(text.slice(starts[i], starts[i]! + 80)))
      return true;
  return false;
}

/** Whether `text` at `path` is bundled code: a generated path (a Prisma client's runtime, `*.min.js`, a bundle) or minified lines. */
export function isBundledText(path: string, text: string, lineStarts?: readonly number[]): boolean {
  return GENERATED_PATH.test(path.replaceAll('\\', '/')) || isMinified(text, lineStarts);
}

/** Whether `text` at `path` is generated or bundled code: bundled (`isBundledText`), or a generator's banner in its header. */
export function isGeneratedText(path: string, text: string, lineStarts?: readonly number[]): boolean {
  if (isBundledText(path, text, lineStarts)) return true;
  const comments = headerComments(text);
  return comments.length > 0 && (generatorMarkerIn(comments) !== undefined || comments.some((comment) => GENERATED_BANNER.test(comment)));
}

interface LintedSource {
  text: string;
  /** ESLint's line index (where each line starts). */
  lineStartIndices?: readonly number[];
  ast: unknown;
}

/** The file being asked about: its SourceCode keys the answer, its path is part of it. */
let askedFilename = '';
const generatedSource = lastFileCache((sourceCode: LintedSource) =>
  isGeneratedText(askedFilename, sourceCode.text, sourceCode.lineStartIndices),
);

/** Whether the file `context` lints is generated or bundled code: decided once per file, whichever rule asks first. */
export function isGeneratedFile(context: { filename: string; sourceCode: LintedSource }): boolean {
  askedFilename = context.filename;
  return generatedSource(context.sourceCode);
}
