// One adapter from the many ways code holds a JetStream context (v2 `nc.jetstream()`, v3
// `jetstream(nc)`, a variable, a class field, a destructured property, a typed parameter) to one
// question the rule asks: "is this expression a JetStream context, and of which client?".
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { CALL, ESM, READ, ReferenceTracker, findVariable } from '@eslint-community/eslint-utils';
import {
  JETSTREAM_CLIENT_TYPES,
  JETSTREAM_CONTEXT_METHOD,
  JETSTREAM_FACTORIES,
  NATS_CONNECT_FUNCTIONS,
  NATS_CONNECTION_TYPES,
  NATS_MODULES,
  isNatsModule,
  type JetStreamApi,
} from '../../src/knowledge/jetstream.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';

type Node = TSESTree.Node;
type Variable = TSESLint.Scope.Variable;

/** What a value is, as far as the rule can see. */
type ValueKind = { kind: 'context'; api: JetStreamApi } | { kind: 'connection'; api: JetStreamApi };

export interface JetStreamContexts {
  /** The client whose JetStream context `node` evaluates to, or undefined when it is not visibly one. */
  apiOf(node: Node): JetStreamApi | undefined;
}

const V2_MODULES = new Set(['nats', 'nats.ws']);
const apiOfModule = (module: string): JetStreamApi => (V2_MODULES.has(module) ? 'nats-v2' : 'nats-v3');

/** The static name of a member (`a.b`, `a['b']`, `this.#b` → `#b`). */
function memberName(node: TSESTree.MemberExpression): string | undefined {
  if (!node.computed) return node.property.type === 'PrivateIdentifier' ? `#${node.property.name}` : node.property.name;
  return node.property.type === 'Literal' && typeof node.property.value === 'string' ? node.property.value : undefined;
}

/** The static key of an object property or class member. */
function keyName(node: TSESTree.Property | TSESTree.PropertyDefinition): string | undefined {
  if (node.computed) return node.key.type === 'Literal' && typeof node.key.value === 'string' ? node.key.value : undefined;
  if (node.key.type === 'Identifier') return node.key.name;
  if (node.key.type === 'PrivateIdentifier') return `#${node.key.name}`;
  return node.key.type === 'Literal' ? String(node.key.value) : undefined;
}

/** The property path at which `target` sits in a destructuring pattern (`{ a: { b } }` → a.b). */
function patternPath(pattern: Node, target: Node): string[] | undefined {
  if (pattern === target) return [];
  if (pattern.type === 'AssignmentPattern') return patternPath(pattern.left, target);
  if (pattern.type !== 'ObjectPattern') return undefined;
  for (const property of pattern.properties) {
    if (property.type !== 'Property') continue;
    const key = keyName(property);
    if (key === undefined) continue;
    const rest = patternPath(property.value, target);
    if (rest) return [key, ...rest];
  }
  return undefined;
}

export function createJetStreamContexts(sourceCode: Readonly<TSESLint.SourceCode>): JetStreamContexts {
  const program = sourceCode.ast;
  const visitorKeys = sourceCode.visitorKeys as Record<string, readonly string[] | undefined>;
  const globalScope = sourceCode.scopeManager?.globalScope ?? null;

  // Calls that produce a context (v3 `jetstream(nc)`) or a connection (`connect()`), by import.
  const producers = new Map<Node, ValueKind>();
  let importsV2 = false;
  let importsNats = false;
  if (globalScope) {
    const traceMap: Record<string, Record<string | symbol, unknown>> = {};
    // `[ESM]` makes named imports resolve as named exports (not as properties of a CJS default).
    const entry = (module: string) => (traceMap[module] ??= { [ESM]: true });
    for (const f of JETSTREAM_FACTORIES) entry(f.module)[f.name] = { [CALL]: { kind: 'context', api: f.api } satisfies ValueKind };
    for (const c of NATS_CONNECT_FUNCTIONS)
      entry(c.module)[c.name] = { [CALL]: { kind: 'connection', api: apiOfModule(c.module) } satisfies ValueKind };
    const tracker = new ReferenceTracker(globalScope as never);
    for (const { node, info } of [...tracker.iterateEsmReferences(traceMap as never), ...tracker.iterateCjsReferences(traceMap as never)]) {
      producers.set(node as Node, info as ValueKind);
    }
    const required = Object.fromEntries(NATS_MODULES.map((m) => [m, { [READ]: m }]));
    for (const { info } of tracker.iterateCjsReferences(required as never)) {
      importsNats = true;
      if (V2_MODULES.has(info as string)) importsV2 = true;
    }
    if (!globalScope.set.has('require')) traceUndeclaredRequire(globalScope.through);
  }

  // `require` used where the config declares no CommonJS globals (a TS file, an ESM .js): the
  // tracker cannot see it, so follow `const { jetstream } = require(…)` and
  // `const nats = require(…); nats.connect()` by hand.
  function traceUndeclaredRequire(through: readonly TSESLint.Scope.Reference[]): void {
    const tracked = traceTable();
    for (const reference of through) {
      const call = (reference.identifier as Node).parent;
      if (reference.identifier.name !== 'require' || call?.type !== 'CallExpression' || call.callee !== reference.identifier) continue;
      const source = call.arguments[0];
      if (source?.type !== 'Literal' || typeof source.value !== 'string' || !isNatsModule(source.value)) continue;
      importsNats = true;
      if (V2_MODULES.has(source.value)) importsV2 = true;
      const exports = tracked.get(source.value);
      const declarator = call.parent;
      if (!exports || declarator?.type !== 'VariableDeclarator' || declarator.init !== call) continue;
      const callsOf = (name: TSESTree.Identifier, each: (use: Node) => void) => {
        for (const use of sourceCode.getDeclaredVariables(declarator).find((v) => v.name === name.name)?.references ?? [])
          each(use.identifier as Node);
      };
      if (declarator.id.type === 'Identifier') {
        // `nats.connect()`
        callsOf(declarator.id, (use) => {
          const member = use.parent;
          const kind = member?.type === 'MemberExpression' && member.object === use ? exports.get(memberName(member) ?? '') : undefined;
          if (kind && member?.parent?.type === 'CallExpression' && member.parent.callee === member) producers.set(member.parent, kind);
        });
      }
      if (declarator.id.type === 'ObjectPattern') {
        // `const { jetstream: open } = require(…)`; `open(nc)`
        for (const property of declarator.id.properties) {
          if (property.type !== 'Property' || property.value.type !== 'Identifier') continue;
          const kind = exports.get(keyName(property) ?? '');
          if (!kind) continue;
          callsOf(property.value, (use) => {
            if (use.parent?.type === 'CallExpression' && use.parent.callee === use) producers.set(use.parent, kind);
          });
        }
      }
    }
  }

  function traceTable(): Map<string, Map<string, ValueKind>> {
    const table = new Map<string, Map<string, ValueKind>>();
    const entry = (module: string) => table.get(module) ?? table.set(module, new Map()).get(module)!;
    for (const f of JETSTREAM_FACTORIES) entry(f.module).set(f.name, { kind: 'context', api: f.api });
    for (const c of NATS_CONNECT_FUNCTIONS) entry(c.module).set(c.name, { kind: 'connection', api: apiOfModule(c.module) });
    return table;
  }

  // Local names of the imported type names (`JetStreamClient`, `NatsConnection`) and namespaces.
  const typeNames = new Map<string, ValueKind>();
  const namespaces = new Map<string, string>();
  for (const statement of program.body) {
    if (statement.type !== 'ImportDeclaration' || typeof statement.source.value !== 'string') continue;
    const module = statement.source.value;
    if (!isNatsModule(module)) continue;
    importsNats = true;
    if (V2_MODULES.has(module)) importsV2 = true;
    for (const specifier of statement.specifiers) {
      if (specifier.type === 'ImportNamespaceSpecifier') namespaces.set(specifier.local.name, module);
      if (specifier.type !== 'ImportSpecifier') continue;
      const imported = specifier.imported.type === 'Identifier' ? specifier.imported.name : String(specifier.imported.value);
      const kind = typeKind(module, imported);
      if (kind) typeNames.set(specifier.local.name, kind);
    }
  }

  function typeKind(module: string, name: string): ValueKind | undefined {
    if (JETSTREAM_CLIENT_TYPES.some((t) => t.module === module && t.name === name)) return { kind: 'context', api: apiOfModule(module) };
    if (NATS_CONNECTION_TYPES.some((t) => t.module === module && t.name === name)) return { kind: 'connection', api: apiOfModule(module) };
    return undefined;
  }

  /** `js: JetStreamClient`, `nats.JetStreamClient`, `JetStreamClient | undefined`. */
  function kindOfType(type: Node | undefined): ValueKind | undefined {
    if (!type) return undefined;
    if (type.type === 'TSTypeAnnotation') return kindOfType(type.typeAnnotation);
    if (type.type === 'TSUnionType') {
      for (const member of type.types) {
        const kind = kindOfType(member);
        if (kind) return kind;
      }
      return undefined;
    }
    if (type.type !== 'TSTypeReference') return undefined;
    const name = type.typeName;
    if (name.type === 'Identifier') return typeNames.get(name.name);
    if (name.type === 'TSQualifiedName' && name.left.type === 'Identifier') {
      const module = namespaces.get(name.left.name);
      return module === undefined ? undefined : typeKind(module, name.right.name);
    }
    return undefined;
  }

  // Per class: every value or type each field (`js`, `#js`) is given anywhere in the class.
  const classFields = new Map<Node, Map<string, Node[]>>();
  function fieldsOf(classNode: Node): Map<string, Node[]> {
    const cached = classFields.get(classNode);
    if (cached) return cached;
    const fields = new Map<string, Node[]>();
    classFields.set(classNode, fields);
    const add = (name: string | undefined, value: Node | null | undefined) => {
      if (name === undefined || !value) return;
      const list = fields.get(name) ?? [];
      list.push(value);
      fields.set(name, list);
    };
    const body = (classNode as TSESTree.ClassDeclaration).body;
    for (const member of body.body) {
      if (member.type === 'PropertyDefinition') {
        add(keyName(member), member.value);
        add(keyName(member), member.typeAnnotation);
      }
      if (member.type === 'MethodDefinition' && member.kind === 'constructor') {
        for (const param of member.value.params) {
          if (param.type !== 'TSParameterProperty') continue;
          const id = param.parameter.type === 'AssignmentPattern' ? param.parameter.left : param.parameter;
          if (id.type === 'Identifier') add(id.name, id.typeAnnotation);
        }
      }
    }
    // `this.js = …` anywhere in the class, not inside a nested class (its `this` is another).
    const visit = (node: Node) => {
      if (node.type === 'AssignmentExpression' && node.left.type === 'MemberExpression' && node.left.object.type === 'ThisExpression') {
        add(memberName(node.left), node.right);
      }
      for (const key of visitorKeys[node.type] ?? []) {
        const child = (node as unknown as Record<string, unknown>)[key];
        for (const c of Array.isArray(child) ? child : [child]) {
          if (
            c &&
            typeof (c as Node).type === 'string' &&
            (c as Node).type !== 'ClassDeclaration' &&
            (c as Node).type !== 'ClassExpression'
          )
            visit(c as Node);
        }
      }
    };
    visit(body);
    return fields;
  }

  function enclosingClass(node: Node): Node | undefined {
    for (let n: Node | undefined = node.parent; n; n = n.parent) {
      if (n.type === 'ClassDeclaration' || n.type === 'ClassExpression') return n;
    }
    return undefined;
  }

  function variableOf(node: TSESTree.Identifier): Variable | undefined {
    try {
      return (findVariable(sourceCode.getScope(node) as never, node as never) as unknown as Variable | null) ?? undefined;
    } catch {
      return undefined;
    }
  }

  function kindOf(raw: Node, seen: Set<Node>): ValueKind | undefined {
    // `(client as JetStreamClient)` says what it is.
    if (raw.type === 'TSAsExpression' || raw.type === 'TSTypeAssertion') {
      const asserted = kindOfType(raw.typeAnnotation);
      if (asserted) return asserted;
    }
    const node = unwrapExpression(raw, { await: true });
    if (seen.has(node)) return undefined;
    seen.add(node);
    if (node.type === 'CallExpression') {
      const produced = producers.get(node);
      if (produced) return produced;
      const callee = unwrapExpression(node.callee);
      if (callee.type === 'MemberExpression' && memberName(callee) === JETSTREAM_CONTEXT_METHOD && node.arguments.length <= 1) {
        const receiver = kindOf(callee.object, seen);
        if (receiver?.kind === 'connection') return { kind: 'context', api: receiver.api };
        // A connection the rule cannot trace (injected, passed in) in a file that uses NATS.
        if (receiver === undefined && importsNats) return { kind: 'context', api: importsV2 ? 'nats-v2' : 'nats-v3' };
      }
      return undefined;
    }
    if (node.type === 'Identifier') return kindOfVariable(node, seen);
    if (node.type === 'MemberExpression') {
      const name = memberName(node);
      return name === undefined ? undefined : kindOfMember(node.object, [name], seen);
    }
    return undefined;
  }

  function kindOfVariable(node: TSESTree.Identifier, seen: Set<Node>): ValueKind | undefined {
    const variable = variableOf(node);
    if (!variable) return undefined;
    for (const def of variable.defs) {
      const declared = kindOfType((def.name as TSESTree.Identifier).typeAnnotation);
      if (declared) return declared;
      if ((def.type as string) === 'Variable') {
        const declarator = def.node as TSESTree.VariableDeclarator;
        if (!declarator.init) continue;
        const path = patternPath(declarator.id, def.name as Node);
        const kind = path === undefined ? undefined : kindOfMember(declarator.init, path, seen);
        if (kind) return kind;
      }
    }
    // `let js; … js = nc.jetstream()`
    for (const reference of variable.references) {
      const parent = (reference.identifier as Node).parent;
      if (parent?.type === 'AssignmentExpression' && parent.left === reference.identifier && parent.operator === '=') {
        const kind = kindOf(parent.right, seen);
        if (kind) return kind;
      }
    }
    return undefined;
  }

  /** The kind of `object.path[0].path[1]…`, seeing through `this`, object literals and variables. */
  function kindOfMember(rawObject: Node, path: string[], seen: Set<Node>): ValueKind | undefined {
    const [head, ...rest] = path;
    if (head === undefined) return kindOf(rawObject, seen);
    const object = unwrapExpression(rawObject, { await: true });
    if (object.type === 'ThisExpression') {
      const classNode = enclosingClass(object);
      if (!classNode || rest.length > 0) return undefined;
      for (const value of fieldsOf(classNode).get(head) ?? []) {
        const kind = value.type === 'TSTypeAnnotation' ? kindOfType(value) : kindOf(value, seen);
        if (kind) return kind;
      }
      return undefined;
    }
    if (object.type === 'ObjectExpression') {
      for (const property of object.properties) {
        if (property.type === 'Property' && keyName(property) === head) return kindOfMember(property.value, rest, seen);
      }
      return undefined;
    }
    if (object.type === 'Identifier') {
      if (seen.has(object)) return undefined;
      seen.add(object);
      const variable = variableOf(object);
      const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
      if (!def || (def.type as string) !== 'Variable') return undefined;
      const declarator = def.node as TSESTree.VariableDeclarator;
      const prefix = patternPath(declarator.id, def.name as Node);
      if (!declarator.init || prefix === undefined) return undefined;
      return kindOfMember(declarator.init, [...prefix, ...path], seen);
    }
    return undefined;
  }

  return {
    apiOf(node) {
      try {
        const kind = kindOf(node, new Set());
        return kind?.kind === 'context' ? kind.api : undefined;
      } catch {
        // Never throw on odd input: an expression the rule cannot read is not visibly a context.
        return undefined;
      }
    },
  };
}
