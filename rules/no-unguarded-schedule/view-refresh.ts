// A work that rebuilds a materialized view of the shared database (`REFRESH MATERIALIZED VIEW
// [CONCURRENTLY] daily_totals`, as a query tag, a string or a template handed to a query call):
// a write every replica repeats on the same database, however the call sending it is named.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { descendants } from '../../analysis/sql/descendants.js';
import { onlyLocalFunctionCalled } from '../../analysis/scheduled-work/imported-work-call.js';
import type { ScheduledWork } from '../../analysis/scheduled-work/scheduled-work.js';
import { REFRESH_VIEW_SQL } from '../../src/knowledge/start-ddl.js';

/** The text a node writes out: a string, or a template's (or a query tag's) text, its holes left as spaces. */
export function writtenText(node: TSESTree.Node): string | undefined {
  if (node.type === 'Literal') return typeof node.value === 'string' ? node.value : undefined;
  return node.type === 'TemplateLiteral' ? node.quasis.map((q) => q.value.raw).join(' ') : undefined;
}

/** Whether SQL text written in `body` refreshes a materialized view. */
function refreshesViewIn(sourceCode: SourceCode, body: TSESTree.Node): boolean {
  // Most works hold no such word: their text answers before any node is read.
  if (!/materialized/i.test(sourceCode.text.slice(body.range[0], body.range[1]))) return false;
  for (const node of descendants(body, sourceCode.visitorKeys)) if (REFRESH_VIEW_SQL.test(writtenText(node) ?? '')) return true;
  return false;
}

/** The work (a poll loop's body, its function, or the one function of the file its arrow calls) refreshes a materialized view. */
export function rebuildsSharedView(sourceCode: SourceCode, work: ScheduledWork): boolean {
  const fn = work.resolved?.fn;
  const body = fn?.body ?? work.loopBody;
  if (body === undefined) return false;
  if (refreshesViewIn(sourceCode, body)) return true;
  const called = fn && onlyLocalFunctionCalled(sourceCode, fn);
  return called !== undefined && refreshesViewIn(sourceCode, called.body);
}
