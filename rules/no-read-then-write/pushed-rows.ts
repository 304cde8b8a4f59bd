// A number allocated from the largest stored one and put in a row object pushed onto a local list
// (`rows.push({ number: next })`), the list then written: handed to a write whole
// (`createMany({ data: rows })`), or each element written by a callback over it (`rows.map((row) =>
// prisma.item.create({ data: row }))`). The number is sent as surely as in the write's own object.
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { isFunctionNode } from '../../analysis/sql/enclosing-function.js';

type Node = TSESTree.Node;
type Sent = { write: TSESTree.CallExpression; field: string | undefined };
/** Where a name's read is sent (next-from-highest.ts' `sentDirectly`). */
type SentFrom = (start: Node, sourceCode: Readonly<SourceCode>) => Sent | undefined;

/** Callbacks of a list that hand each element to the callback's first parameter. */
const ELEMENT_CALLBACKS: ReadonlySet<string> = new Set(['map', 'forEach', 'flatMap']);

/** The write each element of a list reaches through a callback over it (`rows.map((row) => create({ data: row }))`). */
function sentByCallback(call: TSESTree.CallExpression, sourceCode: Readonly<SourceCode>, sentFrom: SentFrom): Sent | undefined {
  const callback = call.arguments[0];
  const param = isFunctionNode(callback) ? callback.params[0] : undefined;
  if (param?.type !== 'Identifier') return undefined;
  for (const reference of scopeVariable(sourceCode, param)?.references ?? []) {
    const sent = reference.isRead() ? sentFrom(reference.identifier as Node, sourceCode) : undefined;
    if (sent) return sent;
  }
  return undefined;
}

/**
 * The write a row object pushed onto a local list (`push`, the call `list.push(row)`) reaches, with
 * `field` the key the number was put under; `undefined` when the list is written by nothing seen.
 */
export function sentThroughList(
  push: TSESTree.CallExpression,
  field: string,
  sourceCode: Readonly<SourceCode>,
  sentFrom: SentFrom,
): Sent | undefined {
  const callee = unwrapExpression(push.callee);
  const list = callee.type === 'MemberExpression' ? unwrapExpression(callee.object) : undefined;
  if (list?.type !== 'Identifier') return undefined;
  for (const reference of scopeVariable(sourceCode, list)?.references ?? []) {
    const identifier = reference.identifier as Node;
    if (!reference.isRead() || identifier === list) continue;
    const member = identifier.parent;
    const call = member?.type === 'MemberExpression' && member.object === identifier ? member.parent : undefined;
    const sent =
      call?.type === 'CallExpression' && ELEMENT_CALLBACKS.has(memberPropertyName(member as Node) ?? '')
        ? sentByCallback(call, sourceCode, sentFrom)
        : sentFrom(identifier, sourceCode);
    if (sent) return { write: sent.write, field };
  }
  return undefined;
}
