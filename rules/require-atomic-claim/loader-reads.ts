// A one-row read one call away, for a running flag checked on the row: `const state = await
// this.loadByTaskId(taskId)` where the method (or function) of this file it calls returns the row
// its body reads (`return this.db(this.tableName).where('task_id', '=', taskId).first()`). The
// check and the set that follow race the same way as on the library's own read. Only a loader's
// name is asked about (`load…`, `find…`, `get…By…`), and only a helper whose every return is such a
// read counts: one that builds, caches or merges the row is left alone.
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { projectFunctionOf } from '../../analysis/modules/index.js';
import type { DetectContext } from '../../analysis/detect-context.js';
import { readSiteOf } from '../no-read-then-write/read-site.js';
import { ROW_LOADER_NAME } from '../../src/knowledge/orm-reads-writes.js';

/** The expressions a function's own top-level statements return (an arrow's expression body). */
function returned(fn: TSESTree.FunctionLike): TSESTree.Node[] {
  const body = fn.body;
  if (!body) return [];
  if (body.type !== 'BlockStatement') return [body];
  const out: TSESTree.Node[] = [];
  for (const statement of body.body) {
    if (statement.type !== 'ReturnStatement') continue;
    if (!statement.argument) return [];
    out.push(statement.argument);
  }
  return out;
}

/** Whether `call` is a loader of this file whose every return is an unlocked one-row read (its last method one of `oneRowReads`). */
export function loadsOneRow(call: TSESTree.CallExpression, context: DetectContext, oneRowReads: ReadonlySet<string>): boolean {
  const callee = unwrapExpression(call.callee);
  const name = callee.type === 'Identifier' ? callee.name : callee.type === 'MemberExpression' ? memberPropertyName(callee) : undefined;
  if (name === undefined || !ROW_LOADER_NAME.test(name)) return false;
  const target = projectFunctionOf(context, callee);
  if (!target || target.module.sourceCode !== context.sourceCode) return false;
  const values = returned(target.fn);
  return (
    values.length > 0 &&
    values.every((value) => {
      const read = unwrapExpression(value.type === 'AwaitExpression' ? value.argument : value);
      if (read.type !== 'CallExpression') return false;
      const method = memberPropertyName(unwrapExpression(read.callee));
      return method !== undefined && oneRowReads.has(method) && !readSiteOf(read)?.locked;
    })
  );
}
