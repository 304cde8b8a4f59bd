// Whether a word occurs inside the file's string literals and templates — not in its code or its
// comments. SQL is only ever read from strings, so a file whose `update` is a name
// (`lastUpdated`, `onUpdate`) sends no SQL write. The matches are looked up in the parser's
// token list (in order, so each match costs a short binary search); an engine that gives no
// tokens gets the answer for the whole text, as before this check existed.
import type { TSESLint } from '@typescript-eslint/utils';
import { partitionPoint } from './partition-point.js';

export interface TokenLike {
  type: string;
  range: [number, number];
}

const STRING_TOKENS: ReadonlySet<string> = new Set(['String', 'Template']);

/** Index of the first token that ends after `at`, searching from `from` (tokens are sorted). */
export function tokenAt(tokens: readonly TokenLike[], at: number, from: number): number {
  return partitionPoint(tokens, (token) => token.range[1] <= at, from);
}

/** Whether `pattern` (a global expression: its `lastIndex` is reset) matches inside a string or template of the file. */
export function matchesInStrings(sourceCode: Readonly<TSESLint.SourceCode>, pattern: RegExp): boolean {
  const text = sourceCode.text;
  const tokens = sourceCode.ast.tokens as readonly TokenLike[] | undefined;
  pattern.lastIndex = 0;
  if (!Array.isArray(tokens) || (tokens.length === 0 && text.length > 0)) return pattern.test(text);
  let from = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    from = tokenAt(tokens, match.index, from);
    const token = tokens[from];
    if (token && token.range[0] <= match.index && STRING_TOKENS.has(token.type)) {
      pattern.lastIndex = 0;
      return true;
    }
  }
  return false;
}
