// The name a decorator is called by: `@Cron('…')` and `@Cron` → `Cron`, `@schedule.Cron()` → `Cron`.
import type { TSESTree } from '@typescript-eslint/utils';
import { unwrapExpression } from './unwrapped-expression.js';
import { memberPropertyName } from './property-names.js';

/** The decorator's name: its callee's, or the last property of a member (`@nest.Post()`); undefined otherwise. */
export function decoratorName(decorator: TSESTree.Decorator): string | undefined {
  const expression = unwrapExpression(decorator.expression);
  const callee = expression.type === 'CallExpression' ? unwrapExpression(expression.callee) : expression;
  if (callee.type === 'Identifier') return callee.name;
  return memberPropertyName(callee);
}
