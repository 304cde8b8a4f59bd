// What the options argument of a JetStream publish is, as far as the rule can see: absent, an
// object literal (directly or through a `const` used only by publish calls), or opaque (a
// parameter, a call, a spread) — which the rule leaves alone.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { HEADERS_OPTION, MSG_ID_OPTION } from '../../src/knowledge/jetstream.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { propertyKeyName } from '../../analysis/ast/property-names.js';

export type JetStreamPublishOptions =
  /** No options argument, or `undefined`. */
  | { kind: 'absent'; node: TSESTree.Identifier | undefined }
  /** An object literal at the call (`node` is the literal) or behind a `const` (`node` is the name). */
  | { kind: 'object'; node: TSESTree.Node; object: TSESTree.ObjectExpression; hasMsgId: boolean }
  | { kind: 'opaque' };

/** Whether the value of publish `headers` carries the `Nats-Msg-Id` header (asked only when there is no `msgID`). */
export type HeadersCarryMsgId = (headers: TSESTree.Node) => boolean;

/** Whether a literal sets `msgID`, or may (a spread could carry it), or sets headers that carry the id. */
function setsMsgId(object: TSESTree.ObjectExpression, headersCarry: HeadersCarryMsgId | undefined): boolean {
  const sets = object.properties.some((property) => {
    if (property.type === 'SpreadElement') return true;
    // `[key]: …` may be `msgID`.
    if (property.computed && property.key.type !== 'Literal') return true;
    return propertyKeyName(property) === MSG_ID_OPTION;
  });
  if (sets || !headersCarry) return sets;
  return object.properties.some(
    (property) => property.type === 'Property' && propertyKeyName(property) === HEADERS_OPTION && headersCarry(property.value),
  );
}

/** A `const opts = { … }` whose every other use is as a call argument (nothing mutates it). */
function constObjectLiteral(sourceCode: Readonly<TSESLint.SourceCode>, name: TSESTree.Identifier): TSESTree.ObjectExpression | undefined {
  const variable = scopeVariable(sourceCode, name);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || !def || (def.type as string) !== 'Variable') return undefined;
  const declarator = def.node as TSESTree.VariableDeclarator;
  const declaration = declarator.parent as TSESTree.VariableDeclaration | undefined;
  if (declaration?.kind !== 'const' || declarator.id !== def.name || !declarator.init) return undefined;
  const init = unwrapExpression(declarator.init);
  if (init.type !== 'ObjectExpression') return undefined;
  const onlyPassed = variable.references.every((reference) => {
    const id = reference.identifier as TSESTree.Node;
    return (
      id === declarator.id ||
      (id.parent?.type === 'CallExpression' && id.parent.arguments.includes(id as TSESTree.Expression) && !isMutatingCall(id.parent))
    );
  });
  return onlyPassed ? init : undefined;
}

/** `Object.assign(opts, …)` and friends write into their first argument. */
function isMutatingCall(call: TSESTree.CallExpression): boolean {
  const callee = call.callee;
  return callee.type === 'MemberExpression' && callee.object.type === 'Identifier' && callee.object.name === 'Object';
}

export function jetStreamPublishOptions(
  sourceCode: Readonly<TSESLint.SourceCode>,
  call: TSESTree.CallExpression,
  optionsIndex: number,
  headersCarry?: HeadersCarryMsgId,
): JetStreamPublishOptions {
  const args = call.arguments;
  // `publish(...args)`: where the options sit is unknown.
  if (args.slice(0, optionsIndex + 1).some((arg) => arg.type === 'SpreadElement')) return { kind: 'opaque' };
  const raw = args[optionsIndex];
  if (!raw) return { kind: 'absent', node: undefined };
  const arg = unwrapExpression(raw);
  if (arg.type === 'Identifier' && arg.name === 'undefined' && !scopeVariable(sourceCode, arg)?.defs.length)
    return { kind: 'absent', node: arg };
  if (arg.type === 'ObjectExpression') return { kind: 'object', node: arg, object: arg, hasMsgId: setsMsgId(arg, headersCarry) };
  if (arg.type === 'Identifier') {
    const object = constObjectLiteral(sourceCode, arg);
    if (object) return { kind: 'object', node: arg, object, hasMsgId: setsMsgId(object, headersCarry) };
  }
  return { kind: 'opaque' };
}
