// Reads one call away are asked about lazily. Whether `await loadDocument(id)` returns a row it
// read is a question about another function (often in another module, parsed for it), and most
// such calls' results never reach a write. So the engine takes the call as a read *pending* an
// answer — it binds names and carries taint like any read — and asks the question only where the
// answer decides something: at a write (its values, its entities, its filter), at a mutation of a
// loaded entity, at a bound check, and wherever two taints meet and one must be chosen. A pending
// read found to be no read (`none`) carries no taint: every such place treats it as absent, so the
// findings are those of asking every call at once.
import type { ReadSite, Taint } from './model.js';

/** A read site standing for `call`'s answer until `ask` is called (the answer's fields replace the placeholder's). */
export function pendingRead(node: ReadSite['node'], ask: () => ReadSite | null): ReadSite {
  return { candidates: [], node, model: null, locked: false, mutations: [], boundChecks: [], pending: ask };
}

/** `read` once its question is answered: the read itself, or null when the helper returns no read. */
export function settledRead(read: ReadSite): ReadSite | null {
  const ask = read.pending;
  if (ask) {
    read.pending = undefined;
    let answer: ReadSite | null = null;
    try {
      answer = ask();
    } catch {
      answer = null;
    }
    if (answer) {
      read.candidates = answer.candidates;
      read.model = answer.model;
      read.locked = answer.locked;
      if (answer.guessed) read.guessed = true;
    } else {
      read.none = true;
    }
  }
  return read.none ? null : read;
}

/** `taint` when its read is one (answering a pending question first), otherwise null. */
export function settled<T extends Taint>(taint: T | null | undefined): T | null {
  if (!taint) return null;
  if (!taint.read.pending && !taint.read.none) return taint;
  return settledRead(taint.read) ? taint : null;
}

/** Whether `taint` may still turn out to carry no read. */
export const unsettled = (taint: Taint | null | undefined): boolean => !!taint && (!!taint.read.pending || !!taint.read.none);
