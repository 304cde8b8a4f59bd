// A bare timer set beside a declared job of the same function and running the same work:
// `new Cron('0 * * * *', () => refreshFeeds()); setInterval(() => refreshFeeds(), 30_000);`. The
// declared job says the work is business work; its timer twin runs it on every replica as well, and
// is judged as the declared job is (any effect outside the process), not as a bare timer.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { LOG_METHODS, IN_PROCESS_OBJECTS } from '../../src/knowledge/work-effects.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { enclosingFunction } from '../../analysis/sql/enclosing-function.js';
import type { ScheduledWork } from '../../analysis/scheduled-work/scheduled-work.js';

/** The work a schedule runs: its function's body or its loop body. */
const bodyOf = (work: ScheduledWork): TSESTree.Node | undefined => work.resolved?.fn?.body ?? work.loopBody;

/** The callees the work calls by a name that can mean business work (`refreshFeeds`, `this.sync`), as written. */
function calleesOf(sourceCode: SourceCode, body: TSESTree.Node): Set<string> {
  const names = new Set<string>();
  for (const node of descendants(body, sourceCode.visitorKeys)) {
    if (node.type !== 'CallExpression') continue;
    const callee = node.callee;
    if (callee.type === 'MemberExpression') {
      if (LOG_METHODS.includes(memberPropertyName(callee) ?? '')) continue;
      if (callee.object.type === 'Identifier' && IN_PROCESS_OBJECTS.has(callee.object.name)) continue;
    } else if (callee.type !== 'Identifier') continue;
    names.add(sourceCode.getText(callee));
  }
  return names;
}

/** Whether the bare timer `work` runs the work of a declared job set up in the same function. */
export function twinsDeclaredJob(sourceCode: SourceCode, work: ScheduledWork, works: readonly ScheduledWork[]): boolean {
  const body = bodyOf(work);
  if (!work.entry.bareTimer || !body) return false;
  const scope = enclosingFunction(work.schedulerNode);
  const declared = works.filter((w) => !w.entry.bareTimer && w.decorator === undefined && enclosingFunction(w.schedulerNode) === scope);
  if (declared.length === 0) return false;
  const own = calleesOf(sourceCode, body);
  return declared.some((w) => {
    const other = bodyOf(w);
    if (!other) return false;
    if (other === body) return true;
    const theirs = calleesOf(sourceCode, other);
    return [...own].some((name) => theirs.has(name));
  });
}
