// A cheap text test for `require-atomic-claim`, run before any AST work: a pending-rows read is
// only recognised by a status-like column or a queue-like table name (src/knowledge/sql.ts), so
// a file whose text holds none of their words — nor a configured column or table — cannot hold
// a finding. The words are the letters of those two patterns (an optional letter splits a word:
// `jobs?` gives `job`, `work_?items?` gives `work` and `item`), matched case-insensitively like the patterns themselves.
import { QUEUE_LIKE_TABLE, STATUS_LIKE_COLUMN } from '../../src/knowledge/sql.js';
import { wordPattern } from '../../analysis/source/word-pattern.js';

const wordsOf = (pattern: RegExp): string[] => pattern.source.replace(/.\?/g, ' ').match(/[a-z]{3,}/gi) ?? [];
const BUILT_IN_WORDS: readonly string[] = [...new Set([...wordsOf(STATUS_LIKE_COLUMN), ...wordsOf(QUEUE_LIKE_TABLE)])];
const matchers = new Map<string, RegExp>();

/** Whether `text` mentions a status-like column or queue-like table word (built in or configured). */
export function mentionsClaimVocabulary(text: string, configured: readonly string[]): boolean {
  const key = configured.join('\0');
  let matcher = matchers.get(key);
  if (!matcher) {
    matcher = wordPattern([...BUILT_IN_WORDS, ...configured], 'i');
    matchers.set(key, matcher);
  }
  return matcher.test(text);
}
