// One adapter from the many ways code holds a JetStream context (v2 `nc.jetstream()`, v3
// `jetstream(nc)`, a variable, a class field, a destructured property, a typed parameter) to one
// question the rule asks: "is this expression a JetStream context, and of which client?".
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import {
  JETSTREAM_CONTEXT_METHOD,
  JETSTREAM_CONTEXT_TYPE_NAMES,
  JETSTREAM_FILE_WORDS,
  JETSTREAM_USE_WORDS,
  NATS_FILE_WORD,
  namesJetStreamContext,
  namesNatsConnection,
  namesJetStreamGetter,
  type JetStreamApi,
} from '../../src/knowledge/jetstream.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { codeTextOf } from '../../analysis/source/code-text.js';
import { natsTypeKind, readNatsImports, type NatsImports, type ValueKind } from './nats-imports.js';
import { classFieldValues, enclosingClass, fieldName } from '../../analysis/ast/class-fields.js';

type Node = TSESTree.Node;

/** What the modules a file imports say (module summaries): answered by the rule, absent for a module read on its own. */
export interface CrossFileContexts {
  /** The client whose context a call into another project module returns (`getBus()` from './bus'). */
  callResult(call: TSESTree.CallExpression): JetStreamApi | undefined;
  /** The client whose context a value imported from a project module is (`import { js } from './nats'`). */
  importedValue(identifier: TSESTree.Identifier): JetStreamApi | undefined;
}

export interface JetStreamContexts {
  /** The client whose JetStream context `node` evaluates to, or undefined when it is not visibly one. */
  apiOf(node: Node): JetStreamApi | undefined;
  /**
   * The client whose NATS connection `node` is: visibly (typed, `connect()`), or by its name
   * (`this.client`, `natsWrapper.client`, a parameter `nc`) in a file that imports a NATS client
   * module and names JetStream's own things (`JsMsg`, a `streamName`, a durable consumer).
   */
  connectionApiOf(node: Node): JetStreamApi | undefined;
}

/** The property path at which `target` sits in a destructuring pattern (`{ a: { b } }` → a.b). */
export function patternPath(pattern: Node, target: Node): string[] | undefined {
  if (pattern === target) return [];
  if (pattern.type === 'AssignmentPattern') return patternPath(pattern.left, target);
  if (pattern.type !== 'ObjectPattern') return undefined;
  for (const property of pattern.properties) {
    if (property.type !== 'Property') continue;
    const key = propertyKeyName(property);
    if (key === undefined) continue;
    const rest = patternPath(property.value, target);
    if (rest) return [key, ...rest];
  }
  return undefined;
}

/** The name of `a.b` / `a['b']` / `this.#b`. */
const memberName = (node: TSESTree.MemberExpression): string | undefined =>
  node.property.type === 'PrivateIdentifier' ? fieldName(node) : memberPropertyName(node);

/** Reads what expressions of one file are, by following variables, fields, annotations and the NATS imports. */
class ContextReader {
  /**
   * Whether names count as evidence: a file that names NATS or JetStream somewhere (a NATS
   * import, a project module `@app/nats`, a `getJetStream()` helper, a `JetStreamClient` type)
   * and holds a receiver called `js` publishes to JetStream; a file that names neither does not.
   */
  private readonly namesCount: boolean;

  constructor(
    private readonly sourceCode: Readonly<TSESLint.SourceCode>,
    private readonly imports: NatsImports,
    private readonly crossFile: CrossFileContexts | undefined,
  ) {
    this.namesCount = imports.importsNats || JETSTREAM_FILE_WORDS.test(codeTextOf(sourceCode));
  }

  private natsNamed: boolean | undefined;
  private jetStreamUsed: boolean | undefined;

  /** The client of a connection `node` is, visibly or (in a file that imports NATS and uses JetStream) by its name. */
  connectionApi(node: Node): JetStreamApi | undefined {
    const kind = this.kindOf(node, new Set());
    if (kind) return kind.kind === 'connection' ? kind.api : undefined;
    if (!this.imports.importsNats) return undefined;
    const value = unwrapExpression(node, { await: true });
    const name = value.type === 'Identifier' ? value.name : value.type === 'MemberExpression' ? memberName(value) : undefined;
    if (name === undefined || !namesNatsConnection(name)) return undefined;
    // A value the file makes itself and does not make visibly a connection is not one by its name.
    if (value.type === 'MemberExpression' ? !this.isUnsetField(value, name) : !this.comesFromElsewhere(value as TSESTree.Identifier))
      return undefined;
    this.jetStreamUsed ??= JETSTREAM_USE_WORDS.test(codeTextOf(this.sourceCode));
    return this.jetStreamUsed ? this.byName().api : undefined;
  }

  /** Whether the file names NATS itself, not only the `.jetstream()` it calls (asked only of such calls). */
  private namesNats(): boolean {
    this.natsNamed ??= NATS_FILE_WORD.test(codeTextOf(this.sourceCode));
    return this.natsNamed;
  }

  /** The client a context found by name belongs to: the one the file imports, v2 when it imports none. */
  private byName(): ValueKind {
    return { kind: 'context', api: this.imports.importsV2 || !this.imports.importsNats ? 'nats-v2' : 'nats-v3' };
  }

  /** `js: JetStreamClient`, `nats.JetStreamClient`, `JetStreamClient | undefined`. */
  kindOfType(type: Node | undefined): ValueKind | undefined {
    if (!type) return undefined;
    if (type.type === 'TSTypeAnnotation') return this.kindOfType(type.typeAnnotation);
    if (type.type === 'TSUnionType') {
      for (const member of type.types) {
        const kind = this.kindOfType(member);
        if (kind) return kind;
      }
      return undefined;
    }
    if (type.type !== 'TSTypeReference') return undefined;
    const name = type.typeName;
    if (name.type === 'Identifier') {
      const imported = this.imports.typeNames.get(name.name);
      if (imported) return imported;
    }
    if (name.type === 'TSQualifiedName' && name.left.type === 'Identifier') {
      const module = this.imports.namespaces.get(name.left.name);
      if (module !== undefined) return natsTypeKind(module, name.right.name);
    }
    // `JetStreamClient` re-exported by a project module (`import type { JetStreamClient } from '@app/events'`).
    const last = name.type === 'Identifier' ? name.name : name.type === 'TSQualifiedName' ? name.right.name : undefined;
    return last !== undefined && JETSTREAM_CONTEXT_TYPE_NAMES.includes(last) ? this.byName() : undefined;
  }

  kindOf(raw: Node, seen: Set<Node>): ValueKind | undefined {
    // `(client as JetStreamClient)` says what it is.
    if (raw.type === 'TSAsExpression' || raw.type === 'TSTypeAssertion') {
      const asserted = this.kindOfType(raw.typeAnnotation);
      if (asserted) return asserted;
    }
    const node = unwrapExpression(raw, { await: true });
    if (seen.has(node)) return undefined;
    seen.add(node);
    if (node.type === 'CallExpression') return this.kindOfCall(node, seen);
    if (node.type === 'Identifier') {
      const kind = this.kindOfVariable(node, seen);
      if (kind || !this.comesFromElsewhere(node)) return kind;
      const api = this.crossFile?.importedValue(node);
      return api
        ? { kind: 'context', api }
        : (this.kindByName(node.name, namesJetStreamContext) ?? this.kindByName(this.destructuredKey(node), namesJetStreamContext));
    }
    if (node.type === 'MemberExpression') {
      const name = memberName(node);
      if (name === undefined) return undefined;
      const kind = this.kindOfMember(node.object, [name], seen);
      return kind ?? (this.isUnsetField(node, name) ? this.kindByName(name, namesJetStreamContext) : undefined);
    }
    return undefined;
  }

  /**
   * Whether a name's value is made outside this file: a parameter, an import, a global, a `let`
   * set later, or a property destructured from an object the reader could not trace (`const { js }
   * = connections.get(url)`: the object, and what it holds, were built elsewhere — the same as
   * `connections.get(url).js`). A `const js = client.jetstream()` the reader could not trace is
   * something the file made and did not make visibly a context, so its name says nothing.
   */
  private comesFromElsewhere(node: TSESTree.Identifier): boolean {
    const variable = scopeVariable(this.sourceCode, node);
    if (!variable || variable.defs.length === 0) return true;
    return variable.defs.every((def) => {
      if ((def.type as string) !== 'Variable') return true;
      const declarator = def.node as TSESTree.VariableDeclarator;
      return !declarator.init || (patternPath(declarator.id, def.name as Node)?.length ?? 0) > 0;
    });
  }

  /** The property a name was destructured from (`js` of `const { js: stream } = …`), if it was. */
  private destructuredKey(node: TSESTree.Identifier): string | undefined {
    const def = scopeVariable(this.sourceCode, node)?.defs[0];
    if (!def || (def.type as string) !== 'Variable') return undefined;
    return patternPath((def.node as TSESTree.VariableDeclarator).id, def.name as Node)?.at(-1);
  }

  /** Whether `this.<name>` is a field the class gives no value here (injected by a framework, set by a base class), or any other object's member. */
  private isUnsetField(node: TSESTree.MemberExpression, name: string): boolean {
    if (unwrapExpression(node.object).type !== 'ThisExpression') return true;
    const classNode = enclosingClass(node);
    const values = classNode ? this.fieldsOf(classNode).get(name) : undefined;
    return !values || values.every((value) => value.type === 'TSTypeAnnotation');
  }

  /** A context told by its name (`js`, `this.jetStream`, `getJetStreamClient()`), in a file where names count. */
  private kindByName(name: string | undefined, test: (name: string) => boolean): ValueKind | undefined {
    return this.namesCount && name !== undefined && test(name) ? this.byName() : undefined;
  }

  private kindOfCall(node: TSESTree.CallExpression, seen: Set<Node>): ValueKind | undefined {
    const produced = this.imports.producers.get(node);
    if (produced) return produced;
    const callee = unwrapExpression(node.callee);
    if (callee.type === 'MemberExpression' && memberName(callee) === JETSTREAM_CONTEXT_METHOD && node.arguments.length <= 1) {
      const receiver = this.kindOf(callee.object, seen);
      if (receiver?.kind === 'connection') return { kind: 'context', api: receiver.api };
      // A connection the rule cannot trace (injected, passed in, returned by a project class) in a
      // file that uses NATS or names it: `.jetstream()` is a NATS connection's method.
      if (receiver === undefined && (this.imports.importsNats || this.namesNats()))
        return { kind: 'context', api: this.imports.importsNats && !this.imports.importsV2 ? 'nats-v3' : 'nats-v2' };
    }
    // A project helper: `getJetStream()`, `this.connection.getJetStreamClient()`, or one whose module says so.
    const byName = this.kindByName(callee.type === 'Identifier' ? callee.name : memberPropertyName(callee), namesJetStreamGetter);
    const api = byName ? undefined : this.crossFile?.callResult(node);
    return byName ?? (api ? { kind: 'context', api } : undefined);
  }

  private kindOfVariable(node: TSESTree.Identifier, seen: Set<Node>): ValueKind | undefined {
    const variable = scopeVariable(this.sourceCode, node);
    if (!variable) return undefined;
    for (const def of variable.defs) {
      const declared = this.kindOfType((def.name as TSESTree.Identifier).typeAnnotation);
      if (declared) return declared;
      if ((def.type as string) === 'Variable') {
        const declarator = def.node as TSESTree.VariableDeclarator;
        if (!declarator.init) continue;
        const path = patternPath(declarator.id, def.name as Node);
        const kind = path === undefined ? undefined : this.kindOfMember(declarator.init, path, seen);
        if (kind) return kind;
      }
    }
    // `let js; … js = nc.jetstream()`
    for (const reference of variable.references) {
      const parent = (reference.identifier as Node).parent;
      if (parent?.type === 'AssignmentExpression' && parent.left === reference.identifier && parent.operator === '=') {
        const kind = this.kindOf(parent.right, seen);
        if (kind) return kind;
      }
    }
    return undefined;
  }

  private fieldsOf(classNode: TSESTree.ClassDeclaration | TSESTree.ClassExpression): ReadonlyMap<string, readonly Node[]> {
    return classFieldValues(classNode, this.sourceCode.visitorKeys as Record<string, readonly string[] | undefined>);
  }

  /** The kind of `object.path[0].path[1]…`, seeing through `this`, object literals and variables. */
  kindOfMember(rawObject: Node, path: string[], seen: Set<Node>): ValueKind | undefined {
    const [head, ...rest] = path;
    if (head === undefined) return this.kindOf(rawObject, seen);
    const object = unwrapExpression(rawObject, { await: true });
    if (object.type === 'ThisExpression') {
      const classNode = enclosingClass(object);
      if (!classNode || rest.length > 0) return undefined;
      for (const value of this.fieldsOf(classNode).get(head) ?? []) {
        const kind = value.type === 'TSTypeAnnotation' ? this.kindOfType(value) : this.kindOf(value, seen);
        if (kind) return kind;
      }
      return undefined;
    }
    if (object.type === 'ObjectExpression') {
      for (const property of object.properties) {
        if (property.type === 'Property' && propertyKeyName(property) === head) return this.kindOfMember(property.value, rest, seen);
      }
      return undefined;
    }
    if (object.type === 'Identifier') return this.kindOfVariableMember(object, path, seen);
    return undefined;
  }

  /** `const { js } = deps; js…` or `const deps = { js }; deps.js…`: the path continues in the initialiser. */
  private kindOfVariableMember(object: TSESTree.Identifier, path: string[], seen: Set<Node>): ValueKind | undefined {
    if (seen.has(object)) return undefined;
    seen.add(object);
    const variable = scopeVariable(this.sourceCode, object);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (!def || (def.type as string) !== 'Variable') return undefined;
    const declarator = def.node as TSESTree.VariableDeclarator;
    const prefix = patternPath(declarator.id, def.name as Node);
    if (!declarator.init || prefix === undefined) return undefined;
    return this.kindOfMember(declarator.init, [...prefix, ...path], seen);
  }
}

export function createJetStreamContexts(sourceCode: Readonly<TSESLint.SourceCode>, crossFile?: CrossFileContexts): JetStreamContexts {
  const reader = new ContextReader(sourceCode, readNatsImports(sourceCode), crossFile);
  return {
    apiOf(node) {
      try {
        const kind = reader.kindOf(node, new Set());
        return kind?.kind === 'context' ? kind.api : undefined;
      } catch {
        // Never throw on odd input: an expression the rule cannot read is not visibly a context.
        return undefined;
      }
    },
    connectionApiOf(node) {
      try {
        return reader.connectionApi(node);
      } catch {
        return undefined;
      }
    },
  };
}
