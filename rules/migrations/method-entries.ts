// Matching calls against the migrator catalogue (src/knowledge/migrators.ts): which method
// entries a file's imports make possible, whether a call's receiver fits an entry, and the
// imported migrator functions as a tracker catalogue. Shared by `no-in-app-migrations` and the
// cross-file "runs schema writes" fact.
import { chainRoot } from '../../analysis/ast/chain-root.js';
import type { TSESTree } from '@typescript-eslint/utils';
import type { TrackedApi } from '../../analysis/imports/imported-references.js';
import type { DetectContext } from '../../analysis/detect-context.js';
import { moduleSpecifiers } from '../../analysis/imports/imported-references.js';
import { moduleBindings } from '../../analysis/imports/module-bindings.js';
import { projectModuleOf } from '../../analysis/modules/index.js';
import { WordScan } from './words-found.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { constantInitializer } from '../../analysis/sql/sql-text-model.js';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import {
  SCHEMA_WRITE_FUNCTIONS,
  SCHEMA_WRITE_METHODS,
  viaWord,
  type SchemaWriteFunction,
  type SchemaWriteMethod,
} from '../../src/knowledge/migrators.js';
import { RECEIVER_EVIDENCE } from '../../src/knowledge/migrator-receivers.js';
import { receiverShowsLibrary } from './receiver-evidence.js';
import { builtElsewhereAsLibrary } from './receivers-built-elsewhere.js';
import { builtOutOfView } from './receivers-out-of-view.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';

/** Modules whose import is evidence for a method entry (`sequelize` for `.sync()`). */
export function hasEvidence(method: SchemaWriteMethod, modules: ReadonlySet<string>): boolean {
  if (!method.evidence) return true;
  for (const module of modules) {
    for (const pattern of method.evidence) if (typeof pattern === 'string' ? module === pattern : pattern.test(module)) return true;
  }
  return false;
}

/** Whether a receiver as written matches an entry's `via`: `x.migrate.latest()`, `orm.getMigrator().up()`, `Schema.Create()`. */
function viaMatchesAsWritten(via: NonNullable<SchemaWriteMethod['via']>, object: TSESTree.Node): boolean {
  if ('property' in via) return memberPropertyName(object) === via.property;
  if ('identifier' in via)
    return (object.type === 'Identifier' && object.name === via.identifier) || memberPropertyName(object) === via.identifier;
  if (object.type !== 'CallExpression') return false;
  const callee = unwrapExpression(object.callee);
  return memberPropertyName(callee) === via.call || (callee.type === 'Identifier' && callee.name === via.call);
}

/**
 * Whether a receiver matches an entry's `via`, as written or, with the file's `sourceCode`, through
 * the `const` that holds it (`const migrator = orm.getMigrator(); await migrator.up()`), one hop.
 * For a library whose method names are common words (`RECEIVER_EVIDENCE`: Sequelize's `sync`), the
 * receiver must also show itself to be one of the library's objects (`glob.sync()` is not).
 */
export function viaMatches(method: SchemaWriteMethod, receiver: TSESTree.Node, sourceCode?: SourceCode): boolean {
  const evidence = RECEIVER_EVIDENCE[method.library];
  if (evidence && !receiverShowsLibrary(evidence, receiver, sourceCode)) return false;
  const via = method.via;
  if (!via) return true;
  const object = unwrapExpression(receiver);
  if (viaMatchesAsWritten(via, object)) return true;
  if (!sourceCode || object.type !== 'Identifier' || ('identifier' in via && object.name === via.identifier)) return false;
  const init = constantInitializer(object, sourceCode);
  return init !== undefined && viaMatchesAsWritten(via, unwrapExpression(init as TSESTree.Node, { await: true }));
}

/** The catalogue's imported migrator functions for a file importing `modules` (Drizzle's per-driver `migrator` modules matched by pattern). */
export function schemaWriteFunctionCatalogue(modules: ReadonlySet<string>): TrackedApi<SchemaWriteFunction>[] {
  return SCHEMA_WRITE_FUNCTIONS.map((fn) => ({
    modules: Array.isArray(fn.modules) ? fn.modules : [...modules].filter((m) => (fn.modules as RegExp).test(m)),
    path: fn.path,
    kind: 'call' as const,
    entry: fn,
  })).filter((api) => api.modules.length > 0);
}

/** Per method entry, what its test looks for in the text: the `via` word, the method names, and its evidence's module names. */
const ENTRY_WORDS = new Map(
  SCHEMA_WRITE_METHODS.map((m) => [
    m,
    {
      // an empty `via` word is in every text: no test
      via: m.via === undefined ? undefined : viaWord(m.via) || undefined,
      methods: m.methods,
      evidence: (m.evidence ?? []).filter((e): e is string => typeof e === 'string'),
    },
  ]),
);
/** All of them, found in one scan of the text (`WordScan`). */
const ENTRY_WORD_SCAN = new WordScan(
  [...ENTRY_WORDS.values()].flatMap(({ via, methods, evidence }) => [...(via === undefined ? [] : [via]), ...methods, ...evidence]),
);

/** The method entries whose calls a file can hold. */
export interface PossibleEntries {
  /** Its imports give the evidence, and its text holds the names. */
  own: SchemaWriteMethod[];
  /**
   * It does not import the evidence but names it (`models.sequelize.sync()` in a file that requires
   * the project's `./models`): a call matches only on a receiver from a project module that imports it.
   */
  borrowed: SchemaWriteMethod[];
  /**
   * Neither imported nor named here: an entry whose options tell its call (`optionKeys`), matched
   * on a call given them (`conn.sync({ force: true })`).
   */
  byOptions: SchemaWriteMethod[];
}

/** The entries a file importing `modules` whose code is `text` can match (its words found in one scan, `WordScan`). */
export function possibleMethodEntries(modules: ReadonlySet<string>, text: string): PossibleEntries {
  const out: PossibleEntries = { own: [], borrowed: [], byOptions: [] };
  const found = ENTRY_WORD_SCAN.found(text);
  const holds = (word: string): boolean => found.has(word);
  for (const m of SCHEMA_WRITE_METHODS) {
    const words = ENTRY_WORDS.get(m)!;
    if ((words.via !== undefined && !holds(words.via)) || !words.methods.some(holds)) continue;
    if (hasEvidence(m, modules)) {
      out.own.push(m);
      continue;
    }
    // A file that names the library leaves the receiver's evidence to decide (`db.store.sync({ force: true })` is not its client).
    if (words.evidence.some(holds)) out.borrowed.push(m);
    else if (m.optionKeys) out.byOptions.push(m);
  }
  return out;
}

/**
 * Whether the name a receiver starts from (`models` of `models.sequelize`) is imported from a
 * project module that imports the entry's evidence — or from a module that cannot be read (a
 * missing file, an alias only a run-time loader knows: `require('@models')`, a package), or is a
 * parameter of the function around the call, where the receiver's own name (`db.sequelize`,
 * checked by `viaMatches`) is all there is to go on.
 */
function receiverModuleHasEvidence(context: DetectContext, method: SchemaWriteMethod, receiver: TSESTree.Node): boolean {
  const root = chainRoot(receiver, { unwrap: 'await' });
  if (!root) return false;
  const specifier = moduleBindings(context.sourceCode.ast).get(root.name);
  // A parameter (`module.exports = (app) => app.config.db.sequelize.sync()`): its caller's module is out of view too.
  if (specifier === undefined) return scopeVariable(context.sourceCode, root)?.defs[0]?.type === 'Parameter';
  const module = projectModuleOf(context, specifier);
  return module === undefined || hasEvidence(method, moduleSpecifiers(module.sourceCode.ast as TSESTree.Program));
}

/** Whether the name a receiver starts from (`backupDb` of `backupDb.sync()`) is a parameter: the caller made it, out of view. */
function isHandedIn(context: DetectContext, receiver: TSESTree.Node): boolean {
  const root = chainRoot(receiver, { unwrap: 'await' });
  return root !== undefined && scopeVariable(context.sourceCode, root)?.defs[0]?.type === 'Parameter';
}

/** Whether the call whose callee's object is `receiver` is given, as its first argument, an options object with one of `keys`. */
function givenOptionKeys(receiver: TSESTree.Node, keys: readonly string[]): boolean {
  const member = receiver.parent;
  const call = member?.parent;
  if (member?.type !== 'MemberExpression' || call?.type !== 'CallExpression' || unwrapExpression(call.callee) !== member) return false;
  const options = call.arguments[0] && unwrapExpression(call.arguments[0]);
  return (
    options?.type === 'ObjectExpression' && options.properties.some((p) => p.type === 'Property' && keys.includes(propertyKeyName(p) ?? ''))
  );
}

/**
 * The entry a call `<receiver>.<method>()` matches: one the file's imports allow, a borrowed one on
 * a receiver from a module that imports its evidence, or one its options tell (`byOptions`; also an
 * entry the file imports the library of, on a receiver handed in as a parameter that does not show
 * it: `backupDb.sync({ alter: true })` — options only the library's method takes).
 */
export function matchingEntry(
  context: DetectContext,
  entries: PossibleEntries,
  method: string,
  receiver: TSESTree.Node,
): SchemaWriteMethod | undefined {
  const fits = (m: SchemaWriteMethod) => m.methods.includes(method) && viaMatches(m, receiver, context.sourceCode);
  const toldByOptions = (m: SchemaWriteMethod) =>
    m.optionKeys !== undefined && m.methods.includes(method) && givenOptionKeys(receiver, m.optionKeys);
  return (
    entries.own.find(fits) ??
    entries.borrowed.find((m) => fits(m) && receiverModuleHasEvidence(context, m, receiver)) ??
    entries.byOptions.find(toldByOptions) ??
    (isHandedIn(context, receiver) ? entries.own.find(toldByOptions) : undefined) ??
    entries.byOptions.find((m) => m.methods.includes(method) && builtElsewhereAsLibrary(context, m, receiver)) ??
    entries.byOptions.find((m) => m.methods.includes(method) && builtOutOfView(context, m, receiver))
  );
}
