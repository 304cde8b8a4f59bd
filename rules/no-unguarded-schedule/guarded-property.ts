// A work read from a property of a job record (`scheduleJob(job.name, spec, job.function)`) whose
// every value in the file is a guarding wrapper's call (`{ name: 'reminders', function:
// guards.runOnlyOnce(sendReminders, 'reminders', timeout) }`): each job the records hold runs under
// that wrapper's lock, wherever the record is taken from (`jobs.find(…)`, a parameter).
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { descendants } from '../../analysis/sql/descendants.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';

/** `job.function`, where every `function:` this file writes in an object is a call that `isGuarding` accepts. */
export function readsGuardedProperty(
  sourceCode: SourceCode,
  expression: TSESTree.Node | undefined,
  isGuarding: (call: TSESTree.CallExpression) => boolean,
): boolean {
  const member = expression && unwrapExpression(expression);
  if (member?.type !== 'MemberExpression' || member.computed || member.object.type === 'ThisExpression') return false;
  const key = memberPropertyName(member);
  if (key === undefined) return false;
  let values = 0;
  for (const node of descendants(sourceCode.ast, sourceCode.visitorKeys)) {
    if (node.type !== 'Property' || node.parent.type !== 'ObjectExpression' || propertyKeyName(node) !== key) continue;
    const value = unwrapExpression(node.value);
    if (value.type !== 'CallExpression' || !isGuarding(value)) return false;
    values++;
  }
  return values > 0;
}
