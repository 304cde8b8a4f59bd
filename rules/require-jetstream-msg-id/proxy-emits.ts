// NestJS JetStream transports: `this.client.emit(pattern, data)` on a transport's client proxy
// publishes to JetStream (`JETSTREAM_CLIENT_PROXIES`), with a message id only when `data` is a
// record built with one (`builder.setMsgId(id)` before `builder.build()`, or
// `new NatsJetStreamRecord(payload, { msgID })`); through a transport with no such record, never.
// A plain payload, or a record built without the id, is stored again on every retry. Asked only of files that name a proxy class and import it
// from its transport; the proxy is told by the annotation of the field, parameter or variable
// that holds it (`constructor(private client: NatsJetStreamClientProxy)`) or by its `new`.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { JETSTREAM_CLIENT_PROXIES, MSG_ID_OPTION } from '../../src/knowledge/jetstream.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { classFieldValues, enclosingClass, fieldName } from '../../analysis/ast/class-fields.js';
import { methodCallsIn } from './publish-calls.js';

type Node = TSESTree.Node;
type SourceCode = Readonly<TSESLint.SourceCode>;
type Transport = (typeof JETSTREAM_CLIENT_PROXIES)[number];
type Role = 'proxy' | 'builder' | 'record';
type Locals = Map<string, { transport: Transport; role: Role }>;

export interface ProxyEmit {
  call: TSESTree.CallExpression;
  /** The `emit` that names the method (the squiggle). */
  name: Node;
  transport: Transport;
}

/** The proxy classes' names, less those holding another (`NatsJetStreamClientProxy`): the shorter one is in the text wherever they are. */
const PROXY_NAMES: readonly string[] = [...new Set(JETSTREAM_CLIENT_PROXIES.map((transport) => transport.proxy))].filter(
  (name, _, names) => !names.some((other) => other !== name && name.includes(other)),
);
/** What every proxy name starts with (`Nats`): one `includes` of it turns away nearly every file. */
const PROXY_PREFIX = PROXY_NAMES.reduce((prefix, name) => {
  let length = 0;
  while (length < prefix.length && prefix[length] === name[length]) length++;
  return prefix.slice(0, length);
}, PROXY_NAMES[0] ?? '');

/** Whether a file may emit through a JetStream transport's client proxy: it names a proxy class. */
export function mayEmitThroughJetStreamProxy(text: string): boolean {
  return text.includes(PROXY_PREFIX) && PROXY_NAMES.some((name) => text.includes(name));
}

/** The proxy, builder and record classes the file imports from a transport, by their local names. */
function transportImports(program: TSESTree.Program): Locals {
  const locals: Locals = new Map();
  for (const statement of program.body) {
    if (statement.type !== 'ImportDeclaration') continue;
    // A package may export more than one proxy (a current one and a wrapper from an older version).
    for (const transport of JETSTREAM_CLIENT_PROXIES) {
      if (transport.module !== statement.source.value) continue;
      for (const specifier of statement.specifiers) {
        if (specifier.type !== 'ImportSpecifier') continue;
        const imported = specifier.imported.type === 'Identifier' ? specifier.imported.name : String(specifier.imported.value);
        const roles: Record<string, Role> = { [transport.proxy]: 'proxy' };
        if (transport.builder) roles[transport.builder.name] = 'builder';
        if (transport.record) roles[transport.record] = 'record';
        const role = Object.hasOwn(roles, imported) ? roles[imported] : undefined;
        if (role) locals.set(specifier.local.name, { transport, role });
      }
    }
  }
  return locals;
}

/** The class a value or annotation names, when it is one the file imports from a transport. */
function importedClassOf(node: Node | null | undefined, locals: Locals, role: Role): Transport | undefined {
  if (!node) return undefined;
  let name: string | undefined;
  if (node.type === 'TSTypeAnnotation') {
    const type = node.typeAnnotation;
    if (type.type === 'TSTypeReference' && type.typeName.type === 'Identifier') name = type.typeName.name;
  } else {
    const value = unwrapExpression(node, { await: true });
    if (value.type === 'NewExpression' && value.callee.type === 'Identifier') name = value.callee.name;
  }
  const local = name === undefined ? undefined : locals.get(name);
  return local?.role === role ? local.transport : undefined;
}

/** The transport whose client proxy `receiver` holds: a field, parameter or variable annotated with, or given, the proxy class. */
function proxyOf(receiver: Node, sourceCode: SourceCode, locals: Locals): Transport | undefined {
  const value = unwrapExpression(receiver);
  if (value.type === 'MemberExpression' && value.object.type === 'ThisExpression') {
    const name = fieldName(value);
    const owner = enclosingClass(value);
    const given = name === undefined || !owner ? [] : (classFieldValues(owner, sourceCode.visitorKeys).get(name) ?? []);
    for (const node of given) {
      const transport = importedClassOf(node, locals, 'proxy');
      if (transport) return transport;
    }
    return undefined;
  }
  if (value.type !== 'Identifier') return undefined;
  for (const def of scopeVariable(sourceCode, value)?.defs ?? []) {
    const id = def.name as TSESTree.Identifier;
    const transport =
      importedClassOf(id.typeAnnotation, locals, 'proxy') ??
      (def.node.type === 'VariableDeclarator' ? importedClassOf(def.node.init, locals, 'proxy') : undefined);
    if (transport) return transport;
  }
  return undefined;
}

/** Whether a builder variable has its message id set in the file: `true`, `false`, or undefined when it goes where the file cannot follow. */
function builderSetsMsgId(id: TSESTree.Identifier, sourceCode: SourceCode, locals: Locals, transport: Transport): boolean | undefined {
  const variable = scopeVariable(sourceCode, id);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.node.type !== 'VariableDeclarator' || importedClassOf(def.node.init, locals, 'builder') !== transport) return undefined;
  let sets = false;
  for (const reference of variable?.references ?? []) {
    const parent = reference.identifier.parent;
    if (parent?.type === 'MemberExpression' && parent.object === reference.identifier) {
      if (memberPropertyName(parent) === transport.builder?.setMsgId && parent.parent?.type === 'CallExpression') sets = true;
    } else if (parent?.type === 'CallExpression' || parent?.type === 'NewExpression' || parent?.type === 'ReturnStatement') {
      // Handed to a helper (`withTrace(builder)`), or returned: it may set the id there.
      return undefined;
    }
  }
  return sets;
}

/** Whether `data` carries a message id: `true`, `false` (visibly none), or undefined when the file cannot tell. */
function carriesMsgId(
  data: Node | undefined,
  sourceCode: SourceCode,
  locals: Locals,
  transport: Transport,
  depth = 0,
): boolean | undefined {
  // A transport with no record that carries options publishes every payload without an id.
  if (!data || !transport.builder) return false;
  const value = unwrapExpression(data, { await: true });
  if (['ObjectExpression', 'ArrayExpression', 'Literal', 'TemplateLiteral'].includes(value.type)) return false;
  if (value.type === 'NewExpression' && importedClassOf(value, locals, 'record') === transport) {
    const options = value.arguments[1] && unwrapExpression(value.arguments[1]);
    if (!options) return false;
    if (options.type !== 'ObjectExpression' || options.properties.some((p) => p.type === 'SpreadElement')) return undefined;
    return options.properties.some((p) => p.type === 'Property' && propertyKeyName(p) === MSG_ID_OPTION);
  }
  if (value.type === 'CallExpression' && value.callee.type === 'MemberExpression' && value.callee.object.type === 'Identifier')
    return memberPropertyName(value.callee) === transport.builder.build
      ? builderSetsMsgId(value.callee.object, sourceCode, locals, transport)
      : undefined;
  if (value.type !== 'Identifier' || depth > 2) return undefined;
  // A variable given one value in the file (`const record = builder.build()`); a parameter is the caller's.
  const variable = scopeVariable(sourceCode, value);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  const writes = variable?.references.filter((r) => r.isWrite()).length ?? 0;
  if (def?.node.type !== 'VariableDeclarator' || !def.node.init || writes > 1) return undefined;
  return carriesMsgId(def.node.init, sourceCode, locals, transport, depth + 1);
}

/** The `emit` calls on a JetStream transport's client proxy whose data visibly carries no message id. */
export function proxyEmitsWithoutMsgId(sourceCode: SourceCode): ProxyEmit[] {
  const locals = transportImports(sourceCode.ast as TSESTree.Program);
  const proxies = [...locals.values()].filter((local) => local.role === 'proxy').map((local) => local.transport);
  const found: ProxyEmit[] = [];
  for (const method of new Set(proxies.flatMap((transport) => transport.emits))) {
    for (const { call, member } of methodCallsIn(sourceCode, method)) {
      if (call.arguments.some((argument) => argument.type === 'SpreadElement')) continue;
      const transport = proxyOf(member.object, sourceCode, locals);
      if (transport?.emits.includes(method) && carriesMsgId(call.arguments[1], sourceCode, locals, transport) === false)
        found.push({ call, name: member.property, transport });
    }
  }
  return found.sort((a, b) => a.call.range[0] - b.call.range[0]);
}
