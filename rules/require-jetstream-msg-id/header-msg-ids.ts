// Headers that carry the message id themselves: `{ headers: h }` where `h.set('Nats-Msg-Id', id)`
// is written on the headers object — in the publishing function, or in a helper one call away
// that builds and returns it (`{ headers: this.buildHeaders(event) }`, `const h = dedupHeaders(id)`),
// in this file or a project module. JetStream deduplicates on that header exactly as on `msgID`.
// Headers the file cannot see being built (a parameter, a message's own headers copied on) say
// nothing, and the publish is judged as one without an id.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { returnedExpressions } from '../../analysis/ast/returned-expressions.js';
import { HEADER_SETTERS, MSG_ID_HEADER, MSG_ID_HEADER_CONSTANTS } from '../../src/knowledge/jetstream.js';
import { projectFunctionIn, projectFunctionOf, type ProjectFunction } from '../../analysis/modules/index.js';
import type { DetectContext } from '../../analysis/detect-context.js';

type Node = TSESTree.Node;
type SourceCode = Readonly<TSESLint.SourceCode>;

/** A helper function a call leads to, with the source it is written in. */
export interface HeaderHelper {
  fn: TSESTree.FunctionLike;
  sourceCode: SourceCode;
  /** Resolves a callee written inside this helper. */
  resolve: ResolveHelper;
}

/** The helper a callee names (same file or project module), or undefined. */
export type ResolveHelper = (callee: Node) => HeaderHelper | undefined;

/** How many helper calls are followed (`{ headers: build(id) }` → `build` → `base(id)`). */
const MAX_CALLS = 2;

/** Whether an expression names the message-id header: the literal, a `const` holding it, or the client's constant. */
function namesMsgIdHeader(node: Node | undefined, sourceCode: SourceCode): boolean {
  if (!node) return false;
  const value = unwrapExpression(node);
  if (value.type === 'Literal') return typeof value.value === 'string' && value.value.toLowerCase() === MSG_ID_HEADER.toLowerCase();
  if (value.type === 'TemplateLiteral')
    return value.expressions.length === 0 && value.quasis[0]?.value.cooked?.toLowerCase() === MSG_ID_HEADER.toLowerCase();
  if (value.type === 'MemberExpression') return MSG_ID_HEADER_CONSTANTS.includes(memberPropertyName(value) ?? '');
  if (value.type !== 'Identifier') return false;
  const def = scopeVariable(sourceCode, value)?.defs[0];
  const init = def?.node.type === 'VariableDeclarator' && def.node.id === def.name ? def.node.init : null;
  return !!init && init.type !== 'Identifier' && namesMsgIdHeader(init, sourceCode);
}

/** `h.set('Nats-Msg-Id', id)` written on the headers name `name` refers to: the setter's call. */
function msgIdSetOn(name: Node, sourceCode: SourceCode): TSESTree.CallExpression | undefined {
  const member = name.parent;
  if (member?.type !== 'MemberExpression' || member.object !== name) return undefined;
  const call = member.parent;
  const sets =
    call?.type === 'CallExpression' &&
    call.callee === member &&
    HEADER_SETTERS.includes(memberPropertyName(member) ?? '') &&
    namesMsgIdHeader(call.arguments[0], sourceCode);
  return sets ? call : undefined;
}

/** The values a headers variable of this file is given as the message id (`h.set('Nats-Msg-Id', value)`). */
export function msgIdHeaderValues(headers: Node, sourceCode: SourceCode): Node[] {
  const value = unwrapExpression(headers);
  const variable = value.type === 'Identifier' ? scopeVariable(sourceCode, value) : undefined;
  return (variable?.references ?? []).flatMap((reference) => {
    const id = msgIdSetOn(reference.identifier, sourceCode)?.arguments[1];
    return id && id.type !== 'SpreadElement' ? [id] : [];
  });
}

/** Whether the headers variable `id` refers to has the message-id header written on it, or is made by a helper that writes it. */
function variableCarriesMsgId(id: TSESTree.Identifier, sourceCode: SourceCode, resolve: ResolveHelper, calls: number): boolean {
  const variable = scopeVariable(sourceCode, id);
  if (!variable) return false;
  for (const reference of variable.references) {
    if (msgIdSetOn(reference.identifier, sourceCode)) return true;
    // `h = dedupHeaders(id)` later, or the initialiser: the value may come from a helper.
    const parent = (reference.identifier as Node).parent;
    if (parent?.type === 'AssignmentExpression' && parent.left === reference.identifier && parent.operator === '=')
      if (madeWithMsgId(parent.right, sourceCode, resolve, calls)) return true;
  }
  for (const def of variable.defs) {
    if (def.node.type === 'VariableDeclarator' && def.node.id === def.name && def.node.init)
      if (madeWithMsgId(def.node.init, sourceCode, resolve, calls)) return true;
  }
  return false;
}

/** Whether a value is a call to a helper that returns headers carrying the message id. */
function madeWithMsgId(node: Node, sourceCode: SourceCode, resolve: ResolveHelper, calls: number): boolean {
  const value = unwrapExpression(node, { await: true });
  if (value.type !== 'CallExpression' || calls >= MAX_CALLS) return false;
  let helper: HeaderHelper | undefined;
  try {
    helper = resolve(value.callee);
  } catch {
    return false;
  }
  if (!helper) return false;
  const inner = helper;
  return returnedExpressions(inner.fn).some((returned) => carriesMsgId(returned, inner.sourceCode, inner.resolve, calls + 1));
}

/** Whether the value given as publish `headers` carries the message-id header. */
export function carriesMsgId(node: Node, sourceCode: SourceCode, resolve: ResolveHelper, calls = 0): boolean {
  const value = unwrapExpression(node, { await: true });
  if (value.type === 'Identifier') return variableCarriesMsgId(value, sourceCode, resolve, calls);
  return madeWithMsgId(value, sourceCode, resolve, calls);
}

/** A project function as a header helper, resolving the callees written inside it from its own module. */
function helperOf(fn: ProjectFunction): HeaderHelper {
  return {
    fn: fn.fn,
    sourceCode: fn.module.sourceCode,
    resolve: (callee) => {
      const inner = projectFunctionIn(fn, callee);
      return inner && helperOf(inner);
    },
  };
}

/** Whether publish `headers` in the linted file carry the message id, following helpers across the project. */
export function headersCarryMsgIdIn(context: DetectContext): (headers: Node) => boolean {
  const resolve: ResolveHelper = (callee) => {
    const fn = projectFunctionOf(context, callee);
    return fn && helperOf(fn);
  };
  return (headers) => {
    try {
      return carriesMsgId(headers, context.sourceCode, resolve);
    } catch {
      // Headers the analysis cannot read to the end carry nothing it can see.
      return false;
    }
  };
}
