// What a save writes: the changes made in JavaScript to the entities it saves (`repo.save(entity)`,
// `entity.save()`, MikroORM `em.persistAndFlush(entity)`), and for a unit of work's flush
// (MikroORM `em.flush()`, no entity named) those of every entity loaded and changed since — taken
// here as the entities read in the flush's own function: a change made in one function is not
// flushed by a call in another. A saved entity's changes are forgotten: a second save writes
// nothing new.
import type { TSESTree } from '@typescript-eslint/utils';
import { enclosingFunction } from '../../analysis/sql/enclosing-function.js';
import type { FieldChange, ReadSite, Taint, WriteSite } from './model.js';

type Saved = { read: ReadSite; change: FieldChange; loc: undefined };

function take(read: ReadSite, out: Saved[], only?: (change: FieldChange) => boolean): void {
  const kept: FieldChange[] = [];
  for (const change of read.mutations) {
    if (only && !only(change)) kept.push(change);
    else out.push({ read, change, loc: undefined });
  }
  read.mutations = kept;
}

/**
 * The changes `write` saves: of its entities (`taintOf` an entity, as saved whole), and for a
 * flush, of the unlocked entities read in its function among `reads` (given only when the file
 * uses a unit-of-work library). `associations` says through which association of its row a change was made.
 */
export function savedChanges(
  write: WriteSite,
  taintOf: (entity: TSESTree.Node) => Taint | null,
  reads: ReadonlyMap<TSESTree.Node, ReadSite | null> | undefined,
  associations?: { get(change: FieldChange): string | undefined },
): Saved[] {
  const out: Saved[] = [];
  if (write.flushesAll && reads) {
    const fn = enclosingFunction(write.node);
    for (const [node, read] of reads)
      if (read && !read.locked && read.mutations.length > 0 && enclosingFunction(node) === fn) take(read, out);
  }
  for (const entity of write.entities) {
    const t = taintOf(entity);
    // A row of an association (`const { plan } = account`, then `plan.save()`) writes its own changes only.
    const via = t?.field ?? null;
    if (t && !t.read.locked) take(t.read, out, via === null || !associations ? undefined : (change) => associations.get(change) === via);
  }
  return out;
}
