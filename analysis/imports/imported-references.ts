// Where a file uses an API from a given module — through ESM imports (default, named, namespace,
// aliased), `require` and destructured `require`, or as a global — matched to catalogue entries.
// One ReferenceTracker pass per catalogue; every rule that recognises APIs by origin uses this.
import { CALL, CONSTRUCT, READ, ReferenceTracker } from '@eslint-community/eslint-utils';
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../detect-context.js';
import { requiredSpecifier } from './module-bindings.js';

/** How the API is used: called, constructed with `new`, or only read (a decorator without parentheses, a value passed on). */
export type ReferenceKind = 'call' | 'construct' | 'read';

export interface TrackedApi<Entry> {
  /** Module specifiers (`node-cron`, `node:timers`); `null` for a global (`setInterval`). */
  modules: readonly (string | null)[];
  /** Export path inside the module: `['schedule']`, `['CronJob', 'from']`. A CJS module's default import is the module object itself. */
  path: readonly string[];
  kind: ReferenceKind;
  entry: Entry;
}

export interface ImportedReference<Entry> {
  /** CallExpression for `call`, NewExpression for `construct`, the Identifier/MemberExpression for `read`. */
  node: TSESTree.Node;
  kind: ReferenceKind;
  entry: Entry;
}

type TraceNode = { [key: string]: TraceNode } & { [CALL]?: unknown[]; [CONSTRUCT]?: unknown[]; [READ]?: unknown[] };

const SYMBOL = { call: CALL, construct: CONSTRUCT, read: READ } as const;
const KIND = new Map<symbol, ReferenceKind>([
  [CALL, 'call'],
  [CONSTRUCT, 'construct'],
  [READ, 'read'],
]);

function addPath(root: TraceNode, path: readonly string[], kind: ReferenceKind, entry: unknown): void {
  let node = root;
  for (const key of path) {
    if (!Object.prototype.hasOwnProperty.call(node, key)) node[key] = {} as TraceNode;
    node = node[key]!;
  }
  const symbol = SYMBOL[kind];
  (node[symbol] ??= []).push(entry);
}

function globalScopeOf(context: DetectContext): unknown {
  const sourceCode = context.sourceCode;
  return sourceCode.scopeManager?.globalScope ?? sourceCode.getScope(sourceCode.ast);
}

/**
 * Every use in the file of the catalogue's APIs, each matched to its entries (one node may match
 * several entries when two share a module and path). Never throws on odd code: unknown shapes are
 * skipped by the tracker.
 */
export function importedReferences<Entry>(context: DetectContext, catalogue: readonly TrackedApi<Entry>[]): ImportedReference<Entry>[] {
  const moduleMap: Record<string, TraceNode> = {};
  const globalMap: TraceNode = {} as TraceNode;
  for (const api of catalogue) {
    for (const module of api.modules) {
      if (module === null) addPath(globalMap, api.path, api.kind, api);
      else addPath((moduleMap[module] ??= {} as TraceNode), api.path, api.kind, api);
    }
  }

  const globalScope = globalScopeOf(context) as ConstructorParameters<typeof ReferenceTracker>[0];
  // `legacy`: a named import from a CJS-style trace map (`import { Redis } from 'ioredis'`,
  // `import { claimPeriod } from 'replica-guard'`) matches too, not only the default import.
  const tracker = new ReferenceTracker(globalScope, { mode: 'legacy' });
  const seen = new Map<TSESTree.Node, Set<unknown>>();
  const out: ImportedReference<Entry>[] = [];
  const push = (node: TSESTree.Node, type: symbol, info: unknown): void => {
    const kind = KIND.get(type);
    if (!kind || !Array.isArray(info)) return;
    let done = seen.get(node);
    if (!done) seen.set(node, (done = new Set()));
    for (const api of info as TrackedApi<Entry>[]) {
      if (done.has(api)) continue;
      done.add(api);
      out.push({ node, kind, entry: api.entry });
    }
  };

  const traceMap = moduleMap as never;
  if (Object.keys(moduleMap).length > 0) {
    for (const ref of tracker.iterateEsmReferences(traceMap)) push(ref.node as TSESTree.Node, ref.type, ref.info);
    for (const ref of tracker.iterateCjsReferences(traceMap)) push(ref.node as TSESTree.Node, ref.type, ref.info);
  }
  if (Object.keys(globalMap).length > 0) {
    for (const ref of tracker.iterateGlobalReferences(globalMap as never)) push(ref.node as TSESTree.Node, ref.type, ref.info);
    // Without `languageOptions.globals` (a bare config, RuleTester) `setInterval` is not a declared
    // global, so the tracker above does not see it: follow the unresolved references instead.
    const through = (globalScope as unknown as { through?: { identifier: TSESTree.Identifier; resolved: unknown }[] }).through ?? [];
    for (const reference of through) {
      if (reference.resolved) continue;
      const name = reference.identifier.name;
      if (!Object.prototype.hasOwnProperty.call(globalMap, name)) continue;
      const sub = globalMap[name]!;
      for (const symbol of [CALL, CONSTRUCT] as const) {
        const parent = reference.identifier.parent;
        const matches =
          symbol === CALL
            ? parent?.type === 'CallExpression' && parent.callee === reference.identifier
            : parent?.type === 'NewExpression' && parent.callee === reference.identifier;
        if (matches && sub[symbol]) push(parent, symbol, sub[symbol]);
      }
      if (sub[READ]) push(reference.identifier, READ, sub[READ]);
      for (const ref of tracker.iteratePropertyReferences(reference.identifier as never, sub as never)) {
        push(ref.node as TSESTree.Node, ref.type, ref.info);
      }
    }
  }
  return out;
}

/** The module specifiers a file imports or requires (top level, literal specifiers): a cheap "is X used here?". */
export function moduleSpecifiers(program: TSESTree.Program): Set<string> {
  const modules = new Set<string>();
  for (const statement of program.body) {
    if (statement.type === 'ImportDeclaration' && typeof statement.source.value === 'string') modules.add(statement.source.value);
    if (statement.type !== 'VariableDeclaration') continue;
    for (const declarator of statement.declarations) {
      const specifier = requiredSpecifier(declarator.init);
      if (specifier !== undefined) modules.add(specifier);
    }
  }
  return modules;
}
