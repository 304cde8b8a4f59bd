// A function-as-a-service module's exported entry (`exports.handler = async (event) => …`,
// `export const handler = …`, `export async function handler(…)`) that never reads its event: a
// task invoked on its own — a migration function the deploy invokes once — not a request each
// running instance serves. A migration run inside it is that task's whole point, not a step of a
// replica's start; a handler that reads its event serves requests, and stays judged as any code.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { TASK_HANDLER_NAMES } from '../../src/knowledge/migration-runs.js';
import type { DetectContext } from '../utils/create-rule.js';

type SourceCode = Readonly<TSESLint.SourceCode>;
type FunctionNode = TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression;

/** `exports.handler`, `module.exports.handler`. */
function isExportsMember(node: TSESTree.Node): boolean {
  const target = unwrapExpression(node);
  if (target.type !== 'MemberExpression' || !TASK_HANDLER_NAMES.includes(memberPropertyName(target) ?? '')) return false;
  const object = unwrapExpression(target.object);
  if (object.type === 'Identifier') return object.name === 'exports';
  return (
    object.type === 'MemberExpression' && memberPropertyName(object) === 'exports' && unwrapExpression(object.object).type === 'Identifier'
  );
}

/** Whether a function is its module's exported task handler (see the file's head). */
function isExportedHandler(fn: FunctionNode): boolean {
  const parent = fn.parent;
  if (fn.type === 'FunctionDeclaration') return parent?.type === 'ExportNamedDeclaration' && TASK_HANDLER_NAMES.includes(fn.id?.name ?? '');
  if (parent?.type === 'AssignmentExpression' && parent.right === fn) return isExportsMember(parent.left);
  if (parent?.type !== 'VariableDeclarator' || parent.init !== fn || parent.id.type !== 'Identifier') return false;
  return TASK_HANDLER_NAMES.includes(parent.id.name) && parent.parent.parent?.type === 'ExportNamedDeclaration';
}

/** Whether a handler never reads its event: no first parameter, or one no code refers to. */
function ignoresEvent(fn: FunctionNode, sourceCode: SourceCode): boolean {
  const [event] = fn.params;
  if (event === undefined) return true;
  if (event.type !== 'Identifier') return false;
  const variable = sourceCode.getDeclaredVariables(fn).find((v) => v.name === event.name);
  return variable !== undefined && variable.references.length === 0;
}

/** Whether `node` lies in its module's exported task handler that never reads its event (see the file's head). */
export function inEventlessTaskHandler(node: TSESTree.Node, sourceCode: SourceCode): boolean {
  for (let at = node.parent; at; at = at.parent) {
    if (at.type !== 'FunctionDeclaration' && at.type !== 'FunctionExpression' && at.type !== 'ArrowFunctionExpression') continue;
    if (isExportedHandler(at)) return ignoresEvent(at, sourceCode);
  }
  return false;
}

/** `report`, silent for migrator calls inside an exported task handler that never reads its event. */
export function outsideTaskHandlers<Report extends (descriptor: never) => void>(context: DetectContext, report: Report): Report {
  return ((descriptor: { messageId: string; node: TSESTree.Node }) => {
    if (descriptor.messageId === 'schemaWriteCall' && inEventlessTaskHandler(descriptor.node, context.sourceCode)) return;
    report(descriptor as never);
  }) as unknown as Report;
}
