// A publish one call away: a project helper that publishes to JetStream with the options (or the
// id) its caller hands it — `publishEvent(nc, subject, data, opts?)` doing
// `nc.jetstream().publish(subject, encode(data), opts)`, or a publisher method forwarding
// `{ msgID: msgId }` — is not reported where it is written: whether the publish carries an id is
// its caller's choice. A caller that hands none (the argument left out, `undefined`, or options
// written without `msgID`) publishes without an id, and is reported at its call; so is a call that
// hands an id made fresh where it is written (`randomUUID()`), which a retried call makes anew.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { nodeAt } from '../../analysis/ast/node-at.js';
import { constantInitializer } from '../../analysis/sql/sql-text-model.js';
import { defineFunctionFact, projectFunctionOf, type ProjectFunction } from '../../analysis/modules/index.js';
import type { DetectContext } from '../../analysis/detect-context.js';
import { HEADERS_OPTION, MSG_ID_OPTION, type JetStreamApi } from '../../src/knowledge/jetstream.js';
import { contextsOfModule } from './cross-file.js';
import { publishCallsIn, type PublishCall } from './publish-calls.js';

type Node = TSESTree.Node;
type SourceCode = Readonly<TSESLint.SourceCode>;

/** Which argument of a helper carries the id its publish sends: the whole options, or the id itself. */
export interface ForwardedId {
  index: number;
  kind: 'options' | 'id';
  /** For options: the property the id is read from (`msgID`, or `msgId` of `msgID: opts.msgId`). */
  key?: string;
  api: JetStreamApi;
}

/** The index of `fn`'s own parameter that `node` names, if it names one. */
function parameterIndex(node: Node, fn: TSESTree.FunctionLike, sourceCode: SourceCode): number | undefined {
  const value = unwrapExpression(node);
  if (value.type !== 'Identifier') return undefined;
  const def = scopeVariable(sourceCode, value)?.defs[0];
  if (def?.type !== 'Parameter') return undefined;
  const index = fn.params.findIndex((param) => {
    const id = param.type === 'AssignmentPattern' ? param.left : param.type === 'TSParameterProperty' ? param.parameter : param;
    return id === def.name || (id.type === 'AssignmentPattern' && id.left === def.name);
  });
  return index >= 0 ? index : undefined;
}

/** Whether `node` names a same-file constant object literal with no `msgID`, no headers and nothing spread into it. */
function setsNoIdOfItsOwn(node: Node, sourceCode: SourceCode): boolean {
  const name = unwrapExpression(node);
  const init = name.type === 'Identifier' ? constantInitializer(name, sourceCode) : undefined;
  const value = init && unwrapExpression(init);
  return (
    value?.type === 'ObjectExpression' &&
    value.properties.every((p) => {
      if (p.type !== 'Property' || (p.computed && p.key.type !== 'Literal')) return false;
      const key = propertyKeyName(p);
      return key !== undefined && key !== MSG_ID_OPTION && key !== HEADERS_OPTION;
    })
  );
}

/** What a publish's options argument takes from the helper's parameters. */
function forwardedBy(options: Node | undefined, fn: TSESTree.FunctionLike, sourceCode: SourceCode): Omit<ForwardedId, 'api'> | undefined {
  if (!options) return undefined;
  const direct = parameterIndex(options, fn, sourceCode);
  if (direct !== undefined) return { index: direct, kind: 'options', key: MSG_ID_OPTION };
  const value = unwrapExpression(options);
  if (value.type !== 'ObjectExpression') return undefined;
  let spread: number | undefined;
  for (const property of value.properties) {
    if (property.type === 'SpreadElement') {
      const index = parameterIndex(property.argument, fn, sourceCode);
      // Defaults merged in from a same-file constant that sets neither `msgID` nor headers
      // (`{ ...DEFAULTS, ...opts }`) leave the id to the caller's options.
      if (index === undefined && setsNoIdOfItsOwn(property.argument, sourceCode)) continue;
      // A spread of something else may carry `msgID` of its own.
      if (index === undefined) return undefined;
      spread ??= index;
      continue;
    }
    if (property.computed && property.key.type !== 'Literal') return undefined;
    const key = propertyKeyName(property);
    if (key === HEADERS_OPTION) return undefined;
    if (key !== MSG_ID_OPTION) continue;
    const id = parameterIndex(property.value, fn, sourceCode);
    if (id !== undefined) return { index: id, kind: 'id' };
    // `msgID: opts.msgId` takes it from the options the caller hands.
    const member = unwrapExpression(property.value);
    const holder = member.type === 'MemberExpression' ? parameterIndex(member.object, fn, sourceCode) : undefined;
    const read = member.type === 'MemberExpression' ? memberPropertyName(member) : undefined;
    return holder === undefined || read === undefined ? undefined : { index: holder, kind: 'options', key: read };
  }
  return spread === undefined ? undefined : { index: spread, kind: 'options', key: MSG_ID_OPTION };
}

/** Whether a project helper publishes to JetStream with an id taken only from one of its arguments (null when not). */
export const forwardedPublishId: (fn: ProjectFunction) => ForwardedId | null = defineFunctionFact<ForwardedId | null>(
  'forwardedPublishId',
  null,
  (fn) => {
    const sourceCode = fn.module.sourceCode;
    const [start, end] = fn.fn.range;
    for (const { call, method } of publishCallsIn(sourceCode)) {
      if (call.range[0] < start || call.range[1] > end) continue;
      const api = contextsOfModule(sourceCode).apiOf((unwrapExpression(call.callee) as TSESTree.MemberExpression).object);
      if (!api) continue;
      const forwarded = forwardedBy(call.arguments[method.optionsIndex], fn.fn, sourceCode);
      if (forwarded) return { ...forwarded, api };
    }
    return null;
  },
);

/** Whether a call hands the helper no id at `forwarded`: the argument left out, `undefined`, or options written without one. */
export function handsNoId(call: TSESTree.CallExpression, forwarded: ForwardedId, headersCarry: (headers: Node) => boolean): boolean {
  const before = call.arguments.slice(0, forwarded.index + 1);
  if (before.some((argument) => argument.type === 'SpreadElement')) return false;
  const raw = call.arguments[forwarded.index];
  if (!raw) return true;
  const argument = unwrapExpression(raw);
  if (argument.type === 'Identifier' && argument.name === 'undefined') return true;
  if (forwarded.kind !== 'options' || argument.type !== 'ObjectExpression') return false;
  return argument.properties.every((property) => {
    if (property.type === 'SpreadElement' || (property.computed && property.key.type !== 'Literal')) return false;
    const key = propertyKeyName(property);
    return key !== (forwarded.key ?? MSG_ID_OPTION) && !(key === HEADERS_OPTION && headersCarry(property.value));
  });
}

/**
 * The id a call hands the helper at `forwarded` when `fresh` says it is made where it is written
 * (`publisher.publish(subject, data, randomUUID())`, `publishEvent(nc, subject, data, { msgID: uuid() })`).
 */
export function handedFreshId(
  call: TSESTree.CallExpression,
  forwarded: ForwardedId,
  fresh: (value: Node) => boolean,
): TSESTree.Node | undefined {
  if (call.arguments.slice(0, forwarded.index + 1).some((argument) => argument.type === 'SpreadElement')) return undefined;
  const raw = call.arguments[forwarded.index];
  if (!raw) return undefined;
  if (forwarded.kind === 'id') return fresh(raw) ? raw : undefined;
  const argument = unwrapExpression(raw);
  if (argument.type !== 'ObjectExpression') return undefined;
  const key = forwarded.key ?? MSG_ID_OPTION;
  const property = argument.properties.find((p) => p.type === 'Property' && !p.computed && propertyKeyName(p) === key);
  return property?.type === 'Property' && fresh(property.value) ? property.value : undefined;
}

/** Calls of the file whose callee's name holds `publish` (`publishEvent(…)`, `bus.publishOrderCreated(…)`) and is not a publish method itself. */
export function publishNamedCallsIn(
  sourceCode: SourceCode,
  publishes: readonly PublishCall[],
): Array<{ call: TSESTree.CallExpression; name: Node }> {
  const text = sourceCode.text;
  const found = new Map<TSESTree.CallExpression, Node>();
  const methodCalls = new Set(publishes.map((p) => p.call));
  for (const word of ['publish', 'Publish']) {
    for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + word.length)) {
      const node = nodeAt(sourceCode as never, at);
      if (node?.type !== 'Identifier') continue;
      const parent = node.parent;
      const callee = parent?.type === 'MemberExpression' && parent.property === node && !parent.computed ? parent : node;
      const call = callee.parent;
      if (call?.type !== 'CallExpression' || call.callee !== callee || methodCalls.has(call)) continue;
      found.set(call, node);
    }
  }
  return [...found].map(([call, name]) => ({ call, name }));
}

/** The helper a call publishes through with the id it is handed, and which argument carries it; undefined otherwise. */
export function forwardingHelperOf(
  call: TSESTree.CallExpression,
  context: DetectContext,
): { helper: ProjectFunction; forwarded: ForwardedId } | undefined {
  try {
    const helper = projectFunctionOf(context, call.callee);
    const forwarded = helper && forwardedPublishId(helper);
    return helper && forwarded ? { helper, forwarded } : undefined;
  } catch {
    return undefined;
  }
}
