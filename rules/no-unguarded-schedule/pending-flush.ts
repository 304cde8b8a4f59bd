// A self-rescheduling timer that flushes one pending change: the method that arms it marks the change
// (`this.changed = true; setTimeout(() => this.triggerUpdate())`), the work leaves when nothing is
// pending (`if (!this.changed) return;`) and clears the mark once it has flushed (`this.changed =
// false`). It runs after a change made on this replica, until that change is written: once per
// change, where the change was made — not a period at every replica. A tick whose flag is cleared
// only by `stop()` (`this.running`) is a schedule still.
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { exits, negated } from '../../analysis/scheduled-work/exit-tests.js';
import { isFunctionLike, type FunctionLike } from '../../analysis/scheduled-work/work-function.js';
import { descendants } from '../../analysis/sql/descendants.js';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';

/** `this.changed`: the field's name, else undefined. */
function thisField(node: TSESTree.Node | undefined): string | undefined {
  return node?.type === 'MemberExpression' && node.object.type === 'ThisExpression' ? memberPropertyName(node) : undefined;
}

/** Whether `body` assigns `value` (true / false) to `this.<field>`. */
function assigns(sourceCode: SourceCode, body: TSESTree.Node, field: string, value: boolean): boolean {
  for (const node of descendants(body, sourceCode.visitorKeys)) {
    if (node.type !== 'AssignmentExpression' || node.operator !== '=' || thisField(node.left) !== field) continue;
    if (node.right.type === 'Literal' && node.right.value === value) return true;
  }
  return false;
}

/** The function that sets the timer at `schedule`. */
function armingFunction(schedule: TSESTree.Node): FunctionLike | undefined {
  for (let current = schedule.parent; current; current = current.parent) if (isFunctionLike(current)) return current;
  return undefined;
}

/** Whether the timer at `schedule` rerunning `work` flushes one pending change (see the file's head). */
export function flushesPendingChange(sourceCode: SourceCode, schedule: TSESTree.Node, work: FunctionLike): boolean {
  const first = work.body.type === 'BlockStatement' ? work.body.body[0] : undefined;
  if (first?.type !== 'IfStatement' || !exits(first.consequent)) return false;
  const field = thisField(negated(first.test));
  const arming = armingFunction(schedule);
  if (field === undefined || !arming || arming === work) return false;
  return assigns(sourceCode, arming.body, field, true) && assigns(sourceCode, work.body, field, false);
}
