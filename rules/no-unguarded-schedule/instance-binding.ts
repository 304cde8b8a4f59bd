// One schedule in the code can be many jobs at run time: set up inside a factory called once per
// cache, queue or tenant (`function fileCache(typeId) { setInterval(prune, …) }`), or inside a loop
// over them (`for (const tenant of tenants) cron.schedule(…, () => sync(tenant))`). A guard with one
// fixed lease key would make those jobs share one lease, so only one of them would run each period.
// The work tells such a schedule apart by reading, as a whole value, a parameter of a function
// around the schedule or a loop variable around it. Reading only members of it (`config.every`,
// `app.db.query()`) reads a dependency or a setting, not what tells the instances apart.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { isFunctionLike } from '../../analysis/scheduled-work/work-function.js';

type Node = TSESTree.Node;

const isLoopOverValues = (node: Node): node is TSESTree.ForOfStatement | TSESTree.ForInStatement =>
  node.type === 'ForOfStatement' || node.type === 'ForInStatement';

const within = (inner: Node, outer: Node): boolean => inner.range[0] >= outer.range[0] && inner.range[1] <= outer.range[1];

/** Whether `identifier` is read as a whole value: not only as the object of a member (`config.every`). */
function readsWholeValue(identifier: Node): boolean {
  const parent = identifier.parent;
  return !(parent?.type === 'MemberExpression' && parent.object === identifier);
}

/**
 * The name of a parameter of a function around `scheduler`, or of a loop variable around it, that
 * `work` (the work function or loop body, inside that function or loop) reads as a whole value; undefined when there is none.
 */
export function instanceBindingReadBy(sourceCode: Readonly<SourceCode>, scheduler: Node, work: Node): string | undefined {
  for (let around = scheduler.parent; around; around = around.parent) {
    if (around === work || around.type === 'Program') continue;
    // A loop whose body sets the schedule up (`for await (const now of setInterval(ms))` is the schedule itself: its variable is the tick).
    const holder = isLoopOverValues(around) && within(scheduler, around.body) ? around.left : isFunctionLike(around) ? around : undefined;
    // Only bindings of something that holds the work: a function defined elsewhere cannot read them.
    if (!holder || !within(work, around)) continue;
    const loop = holder !== around;
    for (const variable of sourceCode.scopeManager?.getDeclaredVariables(holder) ?? []) {
      if (!loop && !variable.defs.some((def) => def.type === 'Parameter')) continue;
      const read = variable.references.some(
        (reference) => reference.isRead() && within(reference.identifier as Node, work) && readsWholeValue(reference.identifier as Node),
      );
      if (read) return variable.name;
    }
  }
  return undefined;
}
