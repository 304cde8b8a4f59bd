// What a file takes from the NATS client modules: the calls that produce a JetStream context
// (v3 `jetstream(nc)`) or a connection (`connect()`), through ESM imports, CommonJS `require`
// (declared or not) and namespaces; the local names of the NATS types (`JetStreamClient`,
// `NatsConnection`); and whether the file uses NATS at all (and which client version).
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { CALL, ESM, READ, ReferenceTracker } from '@eslint-community/eslint-utils';
import {
  JETSTREAM_CLIENT_TYPES,
  JETSTREAM_FACTORIES,
  NATS_CONNECT_FUNCTIONS,
  NATS_CONNECTION_TYPES,
  NATS_MODULES,
  NATS_V2_MODULES,
  isNatsModule,
  jetStreamApiOfModule,
  type JetStreamApi,
} from '../../src/knowledge/jetstream.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';

type Node = TSESTree.Node;

/** What a value is, as far as the rule can see. */
export type ValueKind = { kind: 'context'; api: JetStreamApi } | { kind: 'connection'; api: JetStreamApi };

export interface NatsImports {
  /** Calls that produce a context or a connection, by the import they call. */
  producers: Map<Node, ValueKind>;
  /** The file imports or requires a NATS module. */
  importsNats: boolean;
  /** The file imports or requires the v2 client. */
  importsV2: boolean;
  /** Local names of imported NATS types (`JetStreamClient`, `NatsConnection`). */
  typeNames: Map<string, ValueKind>;
  /** Local names of namespace imports of NATS modules (`import * as nats from 'nats'`), by module. */
  namespaces: Map<string, string>;
}

/** The kind a NATS type names (`JetStreamClient` from `nats`), if it is one the rule knows. */
export function natsTypeKind(module: string, name: string): ValueKind | undefined {
  const api = jetStreamApiOfModule(module);
  if (JETSTREAM_CLIENT_TYPES.some((t) => t.module === module && t.name === name)) return { kind: 'context', api };
  if (NATS_CONNECTION_TYPES.some((t) => t.module === module && t.name === name)) return { kind: 'connection', api };
  return undefined;
}

/** The producers of each NATS module by exported name, as a table. */
function producerTable(): Map<string, Map<string, ValueKind>> {
  const table = new Map<string, Map<string, ValueKind>>();
  const entry = (module: string) => table.get(module) ?? table.set(module, new Map()).get(module)!;
  for (const f of JETSTREAM_FACTORIES) entry(f.module).set(f.name, { kind: 'context', api: f.api });
  for (const c of NATS_CONNECT_FUNCTIONS) entry(c.module).set(c.name, { kind: 'connection', api: jetStreamApiOfModule(c.module) });
  return table;
}

function noteModule(imports: NatsImports, module: string): void {
  imports.importsNats = true;
  if (NATS_V2_MODULES.includes(module)) imports.importsV2 = true;
}

/** Producers and requires the reference tracker sees (ESM imports, and `require` where it is a declared global). */
function trackProducers(globalScope: TSESLint.Scope.Scope, imports: NatsImports): void {
  const traceMap: Record<string, Record<string | symbol, unknown>> = {};
  // `[ESM]` makes named imports resolve as named exports (not as properties of a CJS default).
  for (const [module, exports] of producerTable()) {
    const entry: Record<string | symbol, unknown> = { [ESM]: true };
    for (const [name, kind] of exports) entry[name] = { [CALL]: kind };
    traceMap[module] = entry;
  }
  const tracker = new ReferenceTracker(globalScope as never);
  for (const { node, info } of [...tracker.iterateEsmReferences(traceMap as never), ...tracker.iterateCjsReferences(traceMap as never)]) {
    imports.producers.set(node as Node, info as ValueKind);
  }
  const required = Object.fromEntries(NATS_MODULES.map((m) => [m, { [READ]: m }]));
  for (const { info } of tracker.iterateCjsReferences(required as never)) noteModule(imports, info as string);
}

/**
 * `require` used where the config declares no CommonJS globals (a TS file, an ESM .js): the
 * tracker cannot see it, so follow `const { jetstream } = require(…)` and
 * `const nats = require(…); nats.connect()` by hand.
 */
function traceUndeclaredRequire(
  sourceCode: Readonly<TSESLint.SourceCode>,
  through: readonly TSESLint.Scope.Reference[],
  imports: NatsImports,
) {
  const table = producerTable();
  for (const reference of through) {
    const call = (reference.identifier as Node).parent;
    if (reference.identifier.name !== 'require' || call?.type !== 'CallExpression' || call.callee !== reference.identifier) continue;
    const source = call.arguments[0];
    if (source?.type !== 'Literal' || typeof source.value !== 'string' || !isNatsModule(source.value)) continue;
    noteModule(imports, source.value);
    const exports = table.get(source.value);
    const declarator = call.parent;
    if (!exports || declarator?.type !== 'VariableDeclarator' || declarator.init !== call) continue;
    const usesOf = (name: TSESTree.Identifier, each: (use: Node) => void) => {
      for (const use of sourceCode.getDeclaredVariables(declarator).find((v) => v.name === name.name)?.references ?? [])
        each(use.identifier as Node);
    };
    if (declarator.id.type === 'Identifier') {
      // `nats.connect()`
      usesOf(declarator.id, (use) => {
        const member = use.parent;
        const kind =
          member?.type === 'MemberExpression' && member.object === use ? exports.get(memberPropertyName(member) ?? '') : undefined;
        if (kind && member?.parent?.type === 'CallExpression' && member.parent.callee === member)
          imports.producers.set(member.parent, kind);
      });
    }
    if (declarator.id.type === 'ObjectPattern') {
      // `const { jetstream: open } = require(…)`; `open(nc)`
      for (const property of declarator.id.properties) {
        if (property.type !== 'Property' || property.value.type !== 'Identifier') continue;
        const kind = exports.get(propertyKeyName(property) ?? '');
        if (!kind) continue;
        usesOf(property.value, (use) => {
          if (use.parent?.type === 'CallExpression' && use.parent.callee === use) imports.producers.set(use.parent, kind);
        });
      }
    }
  }
}

/** Local names of the imported NATS type names and namespaces (`import type { JetStreamClient }`, `import * as nats`). */
function readImportDeclarations(program: TSESTree.Program, imports: NatsImports): void {
  for (const statement of program.body) {
    if (statement.type !== 'ImportDeclaration' || typeof statement.source.value !== 'string') continue;
    const module = statement.source.value;
    if (!isNatsModule(module)) continue;
    noteModule(imports, module);
    for (const specifier of statement.specifiers) {
      if (specifier.type === 'ImportNamespaceSpecifier') imports.namespaces.set(specifier.local.name, module);
      if (specifier.type !== 'ImportSpecifier') continue;
      const imported = specifier.imported.type === 'Identifier' ? specifier.imported.name : String(specifier.imported.value);
      const kind = natsTypeKind(module, imported);
      if (kind) imports.typeNames.set(specifier.local.name, kind);
    }
  }
}

export function readNatsImports(sourceCode: Readonly<TSESLint.SourceCode>): NatsImports {
  const imports: NatsImports = { producers: new Map(), importsNats: false, importsV2: false, typeNames: new Map(), namespaces: new Map() };
  const globalScope = sourceCode.scopeManager?.globalScope ?? null;
  if (globalScope) {
    trackProducers(globalScope, imports);
    if (!globalScope.set.has('require')) traceUndeclaredRequire(sourceCode, globalScope.through, imports);
  }
  readImportDeclarations(sourceCode.ast, imports);
  return imports;
}
