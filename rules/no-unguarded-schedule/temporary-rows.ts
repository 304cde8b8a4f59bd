// A job named for dropping temporary records (`deleteTempInvites`, `removeTmpOrders`) whose work is seen
// writing shared rows: the host-local word names what the rows are (sign-ups never finished), not
// files on this host. Per replica by its name otherwise (`cleanupTempFiles`, `removeTmp`): its body decides.
import { nameWords } from '../../analysis/ast/name-words.js';
import { isPerReplicaName } from '../../analysis/scheduled-work/work-intent.js';
import { HOST_LOCAL_WORDS, HOST_LOCAL_WRITE_VERBS } from '../../src/knowledge/per-replica.js';
import { HOST_FILE_NOUNS } from '../../src/knowledge/host-local.js';

/** `deleteTempInvite`: a drop verb, a host-local word, then a noun that is not a file's — and nothing else per replica in the name. */
export function namesTemporaryRowsDrop(name: string): boolean {
  const words = nameWords(name);
  if (!words.some((w) => HOST_LOCAL_WRITE_VERBS.includes(w))) return false;
  const at = words.findIndex((w) => HOST_LOCAL_WORDS.includes(w));
  const noun = at < 0 ? undefined : words[at + 1];
  if (noun === undefined || HOST_FILE_NOUNS.includes(noun)) return false;
  return !isPerReplicaName(words.filter((_, i) => i !== at).join('_'));
}
