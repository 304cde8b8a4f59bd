// A call that refreshes or resets state this process holds, by its name: `resetDownloadTracker()`,
// `reloadConfig()`, `downloadTracker.updateDownloads()`, `this.priceCache.refresh()`, a holder's
// own pending changes written out (`memberCache.savePendingUpdates()`), a holder filled (`pageCache.loadAll()`). Asked only of
// a call this file cannot follow (an import, an injected service's method): whatever reads it
// makes are its own, and every replica refreshing its own copy repeats nothing shared. The call is
// in-process, not "this instance only": a shared write beside it in the same work still counts.
import type { TSESTree } from '@typescript-eslint/utils';
import {
  HOLDER_FILL_VERBS,
  OWN_PROCESS_WORD_PAIRS,
  PENDING_FLUSH_VERBS,
  PENDING_WORD,
  PROCESS_STATE_HOLDERS,
  PROCESS_STATE_NOUNS,
  STATE_REFRESH_VERBS,
} from '../../src/knowledge/process-state.js';
import { receiverName } from '../ast/receiver-name.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { verbOf } from './name-verbs.js';
import { calleeName } from './work-intent.js';
import { nameWords } from '../ast/name-words.js';

/** `resetDownloadTracker`, `reloadConfig`, `updateConfig`: a name whose verb refreshes state its noun says this process holds. */
export function namesProcessStateRefresh(name: string): boolean {
  const words = nameWords(name);
  return STATE_REFRESH_VERBS.includes(verbOf(words) ?? '') && words.slice(1).some((w) => PROCESS_STATE_NOUNS.includes(w));
}

export function refreshesProcessState(call: TSESTree.CallExpression): boolean {
  const callee = unwrapExpression(call.callee);
  const name = calleeName(callee);
  if (name === undefined) return false;
  if (namesProcessStateRefresh(name)) return true;
  const words = nameWords(name);
  const verb = verbOf(words) ?? '';
  const flushesPending = PENDING_FLUSH_VERBS.includes(verb) && words.includes(PENDING_WORD);
  const fills = HOLDER_FILL_VERBS.includes(verb);
  if (!(STATE_REFRESH_VERBS.includes(verb) || flushesPending || fills) || callee.type !== 'MemberExpression') return false;
  const receiver = receiverName(unwrapExpression(callee.object));
  return receiver !== undefined && PROCESS_STATE_HOLDERS.includes(nameWords(receiver).at(-1) ?? '');
}

/**
 * A scheduled work's own name that says it is this process's (OWN_PROCESS_WORD_PAIRS): a liveness
 * post, the chat client's presence, this process's metrics. Read of the work's name only: the same
 * words on a call inside a work (`bot.user.setActivity(…)` after a shared write) say nothing of the rest.
 */
export function namesOwnProcessWork(name: string): boolean {
  const words = nameWords(name);
  return OWN_PROCESS_WORD_PAIRS.some(([a, b]) => words.some((w) => a.includes(w)) && words.some((w) => b.includes(w)));
}
