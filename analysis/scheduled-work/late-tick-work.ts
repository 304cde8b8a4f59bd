// The work of a job built without it and handed over afterwards (src/knowledge/late-tick-handlers.ts):
// `const job = new CronJob({ cronTime })`, then `job.fireOnTick = () => …` or `job.addCallback(fn)`
// in the same file, on the variable or field the job is kept in (`job`, `this.job`).
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { LATE_TICK_HANDLERS } from '../../src/knowledge/late-tick-handlers.js';
import { memberPropertyName } from '../ast/property-names.js';
import { descendants } from '../sql/descendants.js';

const FUNCTION_TYPES: readonly string[] = ['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression'];

/** What the job is kept in: `const job = new CronJob(…)`, `this.job = new CronJob(…)`. */
function holderOf(construct: TSESTree.Node): TSESTree.Node | undefined {
  const parent = construct.parent;
  if (parent?.type === 'VariableDeclarator' && parent.init === construct) return parent.id;
  return parent?.type === 'AssignmentExpression' && parent.right === construct ? parent.left : undefined;
}

/** The function handed to the job after it was built, by the catalogue id of its scheduler; undefined when there is none. */
export function lateTickWork(sourceCode: SourceCode, entryId: string, construct: TSESTree.Node): TSESTree.Node | undefined {
  const handler = LATE_TICK_HANDLERS[entryId];
  const holder = handler ? holderOf(construct) : undefined;
  if (!handler || !holder) return undefined;
  const text = sourceCode.getText(holder);
  const isHolder = (node: TSESTree.Node) => sourceCode.getText(node) === text;
  // Within the function that builds the job (the class, for a field; the file, for a module-level job).
  const stopAt = holder.type === 'MemberExpression' && holder.object.type === 'ThisExpression' ? ['ClassBody'] : FUNCTION_TYPES;
  let scope: TSESTree.Node = construct;
  while (scope.parent && !stopAt.includes(scope.type)) scope = scope.parent;
  for (const node of descendants(scope, sourceCode.visitorKeys)) {
    if (node.type === 'AssignmentExpression' && node.left.type === 'MemberExpression' && isHolder(node.left.object)) {
      if (handler.properties.includes(memberPropertyName(node.left) ?? '')) return node.right;
    }
    if (node.type === 'CallExpression' && node.callee.type === 'MemberExpression' && isHolder(node.callee.object)) {
      if (handler.methods.includes(memberPropertyName(node.callee) ?? '') && node.arguments[0]) return node.arguments[0];
    }
  }
  return undefined;
}
