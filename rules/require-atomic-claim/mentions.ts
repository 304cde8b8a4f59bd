// A cheap text test for `require-atomic-claim`, run before any AST work: a pending-rows read is
// only recognised by a status-like column or a queue-like table name (src/knowledge/sql.ts), so
// a file whose text holds none of them — nor a configured column or table — cannot hold a
// finding. The words are the letters of those two patterns (an optional letter splits a word:
// `jobs?` gives `job`, `work_?items?` gives `work` and `item`), matched case-insensitively like
// the patterns themselves.
//
// In two steps. `mayMentionClaimVocabulary`: one scan for the words anywhere. `namesClaimVocabulary`,
// on the files that pass: the whole name around each hit — an identifier, a key, a column, a
// table, all of which the rule reads as whole names — must be one the patterns accept, so
// `statement`, `estate` or `jobId` (a word inside a longer name) no longer let a file through.
import { collectionName, isQueueLikeTable, isStatusLikeColumn, QUEUE_LIKE_TABLE, STATUS_LIKE_COLUMN } from '../../src/knowledge/sql.js';
import { wordPattern } from '../../analysis/source/word-pattern.js';
import { isRunningFlag } from '../../src/knowledge/running-flags.js';
import { isIdentifierCode } from '../../analysis/source/identifier-code.js';

const wordsOf = (pattern: RegExp): string[] => pattern.source.replace(/.\?/g, ' ').match(/[a-z]{3,}/gi) ?? [];
/** Running flags (flag-claims.ts) are claim vocabulary too: `isRunning`, `syncRunning`, `import_in_progress`. */
const RUNNING_FLAG_WORDS: readonly string[] = [
  'running',
  'processing',
  'syncing',
  'executing',
  'importing',
  'exporting',
  'progress',
  'busy',
];
const BUILT_IN_WORDS: readonly string[] = [
  ...new Set([...wordsOf(STATUS_LIKE_COLUMN), ...wordsOf(QUEUE_LIKE_TABLE), ...RUNNING_FLAG_WORDS]),
];
const ANYWHERE = wordPattern(BUILT_IN_WORDS, 'i');
const EVERY = wordPattern(BUILT_IN_WORDS, 'gi');

/** Whether `text` holds a built-in status or queue word anywhere, or a configured name. */
export function mayMentionClaimVocabulary(text: string, configured: readonly string[]): boolean {
  return ANYWHERE.test(text) || configured.some((name) => text.includes(name));
}

/** Verdicts on the names met so far: the same names (`state`, `items`, `jobId`) come back in file after file. */
const verdicts = new Map<string, boolean>();
const MAX_NAMES = 20_000;

/** Whether the rule would take `name` for a status-like column or a queue-like table. */
function isClaimName(name: string): boolean {
  let verdict = verdicts.get(name);
  if (verdict === undefined) {
    verdict = isStatusLikeColumn(name) || isQueueLikeTable(collectionName(name)) || isRunningFlag(name);
    if (verdicts.size >= MAX_NAMES) verdicts.clear();
    verdicts.set(name, verdict);
  }
  return verdict;
}

/**
 * Whether `text` holds a whole name the rule would take for a status-like column or a queue-like
 * table (`status`, `orderState`, `processed_at`, `outbox_events`, `jobsRepository`), or a configured
 * one. A name the rule reads with a qualifier (`jobs.status`, `public.outbox`) holds such a name.
 */
export function namesClaimVocabulary(text: string, configured: readonly string[]): boolean {
  if (configured.some((name) => text.includes(name))) return true;
  EVERY.lastIndex = 0;
  for (let match = EVERY.exec(text); match; match = EVERY.exec(text)) {
    let start = match.index;
    let end = start + match[0].length;
    while (start > 0 && isIdentifierCode(text.charCodeAt(start - 1))) start--;
    while (end < text.length && isIdentifierCode(text.charCodeAt(end))) end++;
    if (isClaimName(text.slice(start, end))) return true;
    EVERY.lastIndex = end;
  }
  return false;
}
