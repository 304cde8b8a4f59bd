// The calls of a JetStream publish method in a file (`js.publish(…)`, `js['publish'](…)`,
// `(js as JetStreamClient).publish(…)`, `js?.publish(…)`), found from where the method's name is
// written in the text rather than by a listener on every call of the file: a publish call has
// to write the name, and a file writes it a handful of times at most.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { nodeAt } from '../../analysis/ast/node-at.js';
import { isValueWrapper } from '../../analysis/ast/unwrapped-expression.js';
import { JETSTREAM_PUBLISH_METHODS } from '../../src/knowledge/jetstream.js';

export interface PublishCall {
  call: TSESTree.CallExpression;
  method: { name: string; optionsIndex: number };
  /** The node that names the method (the squiggle when there are no options). */
  name: TSESTree.Node;
}

/**
 * Each method's name from its first rare letter on (`blish` of `publish`): an `includes` runs
 * from one occurrence of its first letter to the next, so a rare one (`b`, a capital) is several
 * times faster than a common one (`p`); the whole name is then asked only of the files that hold it.
 */
const RARE_LETTER = /[A-Zbfjkqvwxyz]/;
const NAME_STEMS = JETSTREAM_PUBLISH_METHODS.map((method) => method.name.slice(Math.max(0, method.name.search(RARE_LETTER))));

/** Whether `text` writes the name of a publish method (every publish call does). */
export function writesPublishName(text: string): boolean {
  return JETSTREAM_PUBLISH_METHODS.some((method, i) => text.includes(NAME_STEMS[i]!) && text.includes(method.name));
}

/** The member whose property `node` is, when it names `method` as `memberPropertyName` reads it. */
function memberNaming(node: TSESTree.Node, method: string): TSESTree.MemberExpression | undefined {
  const named = node.type === 'TemplateElement' ? node.parent : node;
  const member = named?.parent;
  if (member?.type !== 'MemberExpression' || member.property !== named) return undefined;
  if (named.type === 'Identifier') return !member.computed && named.name === method ? member : undefined;
  if (named.type === 'Literal') return member.computed && named.value === method ? member : undefined;
  if (named.type === 'TemplateLiteral')
    return member.computed && named.expressions.length === 0 && named.quasis[0]?.value.cooked === method ? member : undefined;
  return undefined;
}

/** The call whose callee is `member`, through the wrappers `unwrapExpression` looks through. */
function callOf(member: TSESTree.MemberExpression): TSESTree.CallExpression | undefined {
  let current: TSESTree.Node = member;
  while (current.parent && isValueWrapper(current.parent) && current.parent.expression === current) current = current.parent;
  const call = current.parent;
  return call?.type === 'CallExpression' && call.callee === current ? call : undefined;
}

/** Every call of a method called `name` in the file (`x.name(…)`, `x['name'](…)`), found where the name is written. */
export function methodCallsIn(
  sourceCode: Readonly<TSESLint.SourceCode>,
  name: string,
): Array<{ call: TSESTree.CallExpression; member: TSESTree.MemberExpression }> {
  const text = sourceCode.text;
  const found: Array<{ call: TSESTree.CallExpression; member: TSESTree.MemberExpression }> = [];
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + name.length)) {
    const node = nodeAt(sourceCode as never, at);
    const member = node && memberNaming(node, name);
    const call = member && callOf(member);
    if (call) found.push({ call, member });
  }
  return found;
}

/** Every publish call of the file, in the order a traversal meets them (outer calls first). */
export function publishCallsIn(sourceCode: Readonly<TSESLint.SourceCode>): PublishCall[] {
  const found: PublishCall[] = [];
  for (const method of JETSTREAM_PUBLISH_METHODS)
    for (const { call, member } of methodCallsIn(sourceCode, method.name)) found.push({ call, method, name: member.property });
  return found.sort((a, b) => a.call.range[0] - b.call.range[0] || b.call.range[1] - a.call.range[1]);
}
