// The verbs a function's name is read by, from its camel-case words (`nameWords`): the verb it starts
// with past a prefix, and the verbs it joins to it with `and` / `then`.
import { AGE_ADJECTIVES, VERB_PREFIXES } from '../../src/knowledge/per-replica.js';

/** The verb a name starts with, past a prefix (`batchUpdate` → `update`). */
export function verbOf(words: readonly string[]): string | undefined {
  if (!VERB_PREFIXES.includes(words[0] ?? '') || words.length < 2) return words[0];
  // `runStaleSweep`, `runExpiredCleanup`: after a prefix, an age names what the verb acts on.
  const at = AGE_ADJECTIVES.includes(words[1] ?? '') && words.length > 2 ? 2 : 1;
  return words[at];
}

/** The verbs after each `and` / `then` of a name (`findAndSendReminders` → `send`; `loadThenArchiveOld` → `archive`). */
export function joinedVerbs(words: readonly string[]): string[] {
  const verbs: string[] = [];
  for (let i = 1; i < words.length - 1; i++) if (words[i] === 'and' || words[i] === 'then') verbs.push(words[i + 1]!);
  return verbs;
}
