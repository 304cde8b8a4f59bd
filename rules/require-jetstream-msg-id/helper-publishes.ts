// A publish through a helper the project cannot read: `new OrderCreatedPublisher(natsWrapper.js)
// .publish(order)`, where the class (or the base class it extends) comes from a package. The file
// cannot see the helper's own `js.publish`, but it sees two things: the helper is handed a
// JetStream context, so what it publishes goes to a stream; and the call hands it no message id
// (no `msgID` option, no id argument), so the only id the helper could send is one it makes up
// itself. A helper the project can read is left to its own file, where its publish is judged.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../../analysis/detect-context.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { assignedFieldValues } from '../../analysis/ast/class-fields.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { exportedBinding, importedProjectModule, projectModuleOf, type ProjectModule } from '../../analysis/modules/index.js';
import {
  JETSTREAM_PUBLISH_METHODS,
  NATS_FILE_WORD,
  importsNatsStreaming,
  msgIdCandidateOf,
  namesMessageIdOption,
  namesNatsConnection,
  type JetStreamApi,
} from '../../src/knowledge/jetstream.js';
import type { JetStreamContexts } from './contexts.js';
import { requiredSpecifier } from '../../analysis/imports/module-bindings.js';

type Node = TSESTree.Node;
type SourceCode = Readonly<TSESLint.SourceCode>;

export interface HelperPublish {
  /** The helper's class as the file names it (`OrderCreatedPublisher`). */
  helper: string;
  /** Where the file imports it from (`@acme/common`, `../events/order-created-publisher`). */
  source: string;
  /** The client whose context the helper is handed. */
  api: JetStreamApi;
  /**
   * What the file hands it: a JetStream context, a connection in a file that uses JetStream, or
   * the connection a project module named for NATS holds (`natsWrapper.client`) in a file that
   * shows neither.
   */
  handed: 'context' | 'connection' | 'holder';
}

/** A helper handed a connection publishes to JetStream only by its name's say-so: a publisher class (`OrderCreatedPublisher`). */
const PUBLISHER_CLASS = /Publisher$/;

/** The `new Helper(…)` a receiver was made by: at the call, in a `const`, or in the class field it is kept in. */
function constructionOf(receiver: Node, sourceCode: SourceCode): TSESTree.NewExpression | undefined {
  const value = unwrapExpression(receiver, { await: true });
  if (value.type === 'NewExpression') return value;
  if (value.type === 'Identifier') {
    const variable = scopeVariable(sourceCode, value);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    const writes = variable?.references.filter((r) => r.isWrite()).length ?? 0;
    if (def?.node.type !== 'VariableDeclarator' || !def.node.init || def.node.id !== def.name || writes > 1) return undefined;
    const init = unwrapExpression(def.node.init, { await: true });
    return init.type === 'NewExpression' ? init : undefined;
  }
  if (value.type === 'MemberExpression' && value.object.type === 'ThisExpression') {
    const given = assignedFieldValues(value, sourceCode.visitorKeys as Record<string, readonly string[] | undefined>);
    const made = given.map((node) => unwrapExpression(node, { await: true }));
    const [first] = made;
    // Every value the field is given is the same helper (`this.publisher = new EventPublisher(this.js)`).
    return first?.type === 'NewExpression' && made.every((node) => node.type === 'NewExpression' && sameCallee(node, first))
      ? first
      : undefined;
  }
  return undefined;
}

const sameCallee = (a: TSESTree.NewExpression, b: TSESTree.NewExpression): boolean =>
  a.callee.type === 'Identifier' && b.callee.type === 'Identifier' && a.callee.name === b.callee.name;

/** `import { X as Y } from 'source'` of a local name: the source and the imported name. */
function importOf(program: TSESTree.Program, local: string): { source: string; imported: string } | undefined {
  for (const statement of program.body) {
    if (statement.type !== 'ImportDeclaration' || statement.importKind === 'type') continue;
    for (const specifier of statement.specifiers) {
      if (specifier.local.name !== local) continue;
      if (specifier.type === 'ImportSpecifier')
        return {
          source: statement.source.value,
          imported: specifier.imported.type === 'Identifier' ? specifier.imported.name : String(specifier.imported.value),
        };
      return { source: statement.source.value, imported: 'default' };
    }
  }
  return undefined;
}

/** Where a name comes from: `import { X } from 'm'`, `const { X } = require('m')`, `const X = require('m').X`. */
function importedBindingOf(identifier: TSESTree.Identifier, sourceCode: SourceCode): { source: string; imported: string } | undefined {
  const def = scopeVariable(sourceCode, identifier)?.defs[0];
  if ((def?.type as string | undefined) === 'ImportBinding') return importOf(sourceCode.ast, identifier.name);
  if (def?.node.type !== 'VariableDeclarator' || def.node.parent.parent?.type !== 'Program') return undefined;
  const source = requiredSpecifier(def.node.init);
  if (source === undefined) return undefined;
  const init = unwrapExpression(def.node.init as Node, { await: true });
  if (def.node.id.type === 'ObjectPattern') {
    const property = def.node.id.properties.find((p) => p.type === 'Property' && p.value === def.name);
    const key = property?.type === 'Property' ? propertyKeyName(property) : undefined;
    return key === undefined ? undefined : { source, imported: key };
  }
  const member = init.type === 'MemberExpression' ? memberPropertyName(init) : undefined;
  return { source, imported: member ?? 'default' };
}

/** Whether a class body has its own publish method (a property holding a function counts). */
function hasOwnPublish(classNode: TSESTree.ClassDeclaration | TSESTree.ClassExpression): boolean {
  return classNode.body.body.some(
    (member) =>
      (member.type === 'MethodDefinition' || member.type === 'PropertyDefinition') &&
      JETSTREAM_PUBLISH_METHODS.some((method) => propertyKeyName(member as never) === method.name),
  );
}

/**
 * Whether the helper `imported` of `module` publishes where the project cannot read it: the class
 * is not in the project (a package, a missing file), or it is a subclass there that does not
 * publish itself and extends a class from outside the project.
 */
function publishesOutOfSight(module: ProjectModule | undefined, imported: string): boolean {
  if (!module) return true;
  const binding = exportedBinding(module, imported);
  // A name re-exported from a package (`export { Publisher } from '@acme/common'`) leads out of the project.
  if (!binding) return true;
  if (binding.kind !== 'node') return false;
  const node = binding.node;
  if (node.type !== 'ClassDeclaration' && node.type !== 'ClassExpression') return false;
  if (hasOwnPublish(node) || node.superClass?.type !== 'Identifier') return false;
  const base = importOf(binding.module.sourceCode.ast, node.superClass.name);
  return base !== undefined && !importedProjectModule(binding.module, base.source);
}

/** Whether an argument may hand the helper a message id: an option named for one, an id variable, a spread. */
function mayCarryMessageId(argument: Node): boolean {
  const value = unwrapExpression(argument);
  if (value.type === 'SpreadElement') return true;
  if (value.type === 'ObjectExpression')
    return value.properties.some((p) => p.type === 'SpreadElement' || namesMessageIdOption(propertyKeyName(p) ?? ''));
  const name = value.type === 'Identifier' ? value.name : value.type === 'MemberExpression' ? memberPropertyName(value) : undefined;
  return name !== undefined && (msgIdCandidateOf(name)?.rank === 0 || namesMessageIdOption(name));
}

/**
 * The helper a publish call goes through, when the file hands it a JetStream context and no
 * message id and the helper's publish lies outside the project; undefined otherwise.
 */
export function helperPublishWithoutMsgId(
  call: TSESTree.CallExpression,
  receiver: Node,
  sourceCode: SourceCode,
  context: DetectContext,
  contexts: JetStreamContexts,
): HelperPublish | undefined {
  const made = constructionOf(receiver, sourceCode);
  if (made?.callee.type !== 'Identifier') return undefined;
  let api: JetStreamApi | undefined;
  for (const argument of made.arguments) {
    // Options given to the helper when it is made may say how it makes an id.
    if (argument.type === 'SpreadElement' || unwrapExpression(argument).type === 'ObjectExpression') return undefined;
    api ??= contexts.apiOf(argument);
  }
  const name = made.callee.name;
  // A publisher class handed a connection in a file that consumes JetStream (`new
  // TicketUpdatedPublisher(this.client)` in a listener of `JsMsg`): its publish goes to the streams the file reads.
  let handed: HelperPublish['handed'] = 'context';
  if (!api && PUBLISHER_CLASS.test(name)) {
    for (const argument of made.arguments) api ??= contexts.connectionApiOf(argument);
    handed = 'connection';
  }
  const held =
    !api && PUBLISHER_CLASS.test(name) ? made.arguments.find((argument) => isHeldNatsConnection(argument, sourceCode)) : undefined;
  if (held) handed = 'holder';
  if ((!api && !held) || call.arguments.some(mayCarryMessageId)) return undefined;
  const imported = importedBindingOf(made.callee, sourceCode);
  if (!imported) return undefined;
  try {
    if (!publishesOutOfSight(projectModuleOf(context, imported.source), imported.imported)) return undefined;
    if (held && holdsStreamingClient(held, sourceCode, context)) return undefined;
  } catch {
    // A module the analysis cannot read to the end: not visibly out of sight.
    return undefined;
  }
  return { helper: name, source: imported.source, api: api ?? 'nats-v2', handed };
}

/**
 * `natsWrapper.client`: a connection, by its name, held by an imported object named for NATS (the
 * project's connection holder). A publisher class handed it publishes over NATS; that the helper
 * publishes to a JetStream stream rather than to core NATS is the shape's common case, and one
 * the file cannot see (`holdsStreamingClient` takes out what a readable holder shows otherwise).
 */
function isHeldNatsConnection(argument: Node, sourceCode: SourceCode): boolean {
  const value = unwrapExpression(argument);
  if (value.type !== 'MemberExpression' || value.object.type !== 'Identifier' || !NATS_FILE_WORD.test(value.object.name)) return false;
  const property = memberPropertyName(value);
  return property !== undefined && namesNatsConnection(property) && importedBindingOf(value.object, sourceCode) !== undefined;
}

/**
 * Whether the holder of a connection (`natsWrapper` of `natsWrapper.client`) holds a NATS
 * Streaming client: this file imports a STAN module, or the project module the holder comes from
 * does. A STAN publish has no message id to deduplicate on. A holder the analysis cannot read
 * keeps the shape's common case.
 */
function holdsStreamingClient(held: Node, sourceCode: SourceCode, context: DetectContext): boolean {
  if (importsNatsStreaming(sourceCode.text)) return true;
  const holder = (unwrapExpression(held) as TSESTree.MemberExpression).object as TSESTree.Identifier;
  const source = importedBindingOf(holder, sourceCode)?.source;
  const module = source === undefined ? undefined : projectModuleOf(context, source);
  return module !== undefined && importsNatsStreaming(module.sourceCode.text);
}
