// Reads one call away: `const doc = await loadDocument(id)` where `loadDocument` (in this file or
// a project module, or a method of an injected service) returns a row it read. Followed through
// the module summaries (analysis/modules) a few calls deep. When the function cannot be found
// (its module is absent, as in a single file linted alone), a loader-named project helper
// (`findOrder`, `this.orders.loadById`) still counts: its result is treated as a loaded row.
import { DATA_ACCESS_OBJECT_NAME } from '../../src/knowledge/database-access.js';
import { isProjectModuleSpecifier } from '../../src/knowledge/project-modules.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { requiredSpecifier } from '../../analysis/imports/module-bindings.js';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { defineFunctionFact, projectFunctionOf, type FollowCall, type ProjectFunction } from '../../analysis/modules/index.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression, wrappingExpression } from '../../analysis/ast/unwrapped-expression.js';
import { descendants } from '../../analysis/sql/descendants.js';
import type { DetectContext } from '../../analysis/detect-context.js';
import { LIBRARY_READS_WRITES, LOADER_VERBS, REPOSITORY_ACCESSORS, type DataLibrary } from '../../src/knowledge/orm-reads-writes.js';
import type { ReadSite } from './model.js';
import { readSiteOf } from './read-site.js';
import { sqlReadSiteOf } from './sql-site.js';
import { namesImportedModel } from './model-imports.js';
import { objectLiteralMethodOf } from './object-methods.js';
import { isSavedLoaderResult } from './saved-loader-results.js';

/** What a function's returned value is, when it is a row it read. */
export interface ReturnedRead {
  candidates: DataLibrary[];
  model: string | null;
  locked: boolean;
}

const MAX_LOCAL_HOPS = 4;
/** Names of helpers that load a row: `findOrder`, `loadDocument`, `getUserById`, `fetchAccount`. */
const LOADER_NAME = new RegExp(`^(?:${LOADER_VERBS.join('|')})(?:One|By|[A-Z])`);
/** …but not one that hands out a data-access object rather than a row (`getRepository`, `getDbClient`, `getOrderService`). */
const ACCESS_OBJECT_NAME =
  /(?:Repository|Repo|Client|Connection|Manager|Service|Pool|Db|Database|DataSource|Store|Model|Instance|Collection)$/;
const ALL_LIBRARIES = Object.keys(LIBRARY_READS_WRITES) as DataLibrary[];

/**
 * What a function returns, per function node: the fact below is asked again of the same function
 * at every depth it is met (only top-level answers are kept), and walking a long body is its cost.
 */
const returnedByFunction = new WeakMap<TSESTree.Node, readonly TSESTree.Node[]>();

/** The expressions a function returns (an arrow's expression body, `return x` not inside nested functions or classes). */
function returnedExpressions({ fn, module }: ProjectFunction): readonly TSESTree.Node[] {
  if (!fn.body) return [];
  if (fn.body.type !== 'BlockStatement') return [fn.body];
  let known = returnedByFunction.get(fn);
  if (!known) returnedByFunction.set(fn, (known = returnsIn(fn.body, module.sourceCode.visitorKeys)));
  return known;
}

/** The arguments of the `return` statements of a function body, those of nested functions and classes left out. */
function returnsIn(body: TSESTree.BlockStatement, visitorKeys: TSESLint.SourceCode.VisitorKeys): TSESTree.Node[] {
  const nested = (node: TSESTree.Node): boolean =>
    node.type === 'FunctionDeclaration' ||
    node.type === 'FunctionExpression' ||
    node.type === 'ArrowFunctionExpression' ||
    node.type === 'ClassDeclaration' ||
    node.type === 'ClassExpression';
  const out: TSESTree.Node[] = [];
  for (const node of descendants(body, visitorKeys, nested)) {
    if (node.type === 'ReturnStatement' && node.argument) out.push(node.argument);
  }
  return out;
}

/** Whether a declarator's pattern binds `name`: `rows`, `{ rows }`, `{ rows: list }`, `[row]`. */
function binds(pattern: TSESTree.Node | null, name: string): boolean {
  if (!pattern) return false;
  switch (pattern.type) {
    case 'Identifier':
      return pattern.name === name;
    case 'ObjectPattern':
      return pattern.properties.some((p) => binds(p.type === 'Property' ? p.value : p.argument, name));
    case 'ArrayPattern':
      return pattern.elements.some((e) => binds(e, name));
    case 'AssignmentPattern':
      return binds(pattern.left, name);
    default:
      return false;
  }
}

/**
 * The initializer of a `const`/`let` declared at the top level of a function body, or of the `try`
 * block wrapped around it (also destructured: `const { rows } = await pool.query(…)`).
 */
function localInitializer(fn: TSESTree.FunctionLike, name: string): TSESTree.Expression | null {
  return fn.body?.type === 'BlockStatement' ? initializerIn(fn.body.body, name) : null;
}

function initializerIn(statements: readonly TSESTree.Statement[], name: string): TSESTree.Expression | null {
  for (const statement of statements) {
    if (statement.type === 'TryStatement') {
      const init = initializerIn(statement.block.body, name);
      if (init) return init;
    }
    if (statement.type !== 'VariableDeclaration') continue;
    for (const declarator of statement.declarations) {
      if (binds(declarator.id, name)) return declarator.init;
    }
  }
  return null;
}

function readIn(expression: TSESTree.Node, fn: ProjectFunction, follow: FollowCall, hops: number): ReturnedRead | null {
  if (hops > MAX_LOCAL_HOPS) return null;
  const node = unwrapExpression(expression, { await: true });
  switch (node.type) {
    case 'CallExpression': {
      const site = readSiteOf(node) ?? sqlReadSiteOf(node, fn.module.sourceCode as unknown as TSESLint.SourceCode);
      if (site) return { candidates: site.candidates, model: site.model, locked: site.locked };
      const callee = follow(node.callee);
      if (callee) return readReturnedBy(callee);
      // The row handed on as plain data (`return existing.toPlain()`, `doc.toObject()`).
      const target = unwrapExpression(node.callee);
      if (target.type === 'MemberExpression' && node.arguments.length === 0 && target.object.type !== 'ThisExpression') {
        const row = readIn(target.object, fn, follow, hops + 1);
        if (row) return row;
      }
      // A base service handing on its repository's loader (`return this.repository.findOneOrCreate(…)`).
      if (looksLikeLoaderMethod(node.callee)) return { candidates: ALL_LIBRARIES, model: null, locked: false };
      // The rows settled together (`return Promise.all(rows)`): the same rows.
      if (isPromiseSettle(target) && node.arguments[0]) return readIn(node.arguments[0], fn, follow, hops + 1);
      // A read-through cache given the read to run on a miss (`cache.load(key, () => repo.findOne(…))`).
      return readOfLoaderArgument(node, fn, follow, hops);
    }
    case 'Identifier': {
      const init = localInitializer(fn.fn, node.name);
      return init ? readIn(init, fn, follow, hops + 1) : null;
    }
    // `rows[0]`, `result.rows`, `result.rows[0].total`: a step into the expression, no hop
    case 'MemberExpression':
      return readIn(node.object, fn, follow, hops);
    case 'ConditionalExpression':
      return readIn(node.consequent, fn, follow, hops + 1) ?? readIn(node.alternate, fn, follow, hops + 1);
    case 'LogicalExpression':
      return readIn(node.left, fn, follow, hops + 1) ?? readIn(node.right, fn, follow, hops + 1);
    // A copy of the row with fields added or replaced (`return { ...rows[0], owner }`): the row's values, as read.
    case 'ObjectExpression':
      return node.properties.reduce<ReturnedRead | null>(
        (found, p) => found ?? (p.type === 'SpreadElement' ? readIn(p.argument, fn, follow, hops + 1) : null),
        null,
      );
    default:
      return null;
  }
}

/** `Promise.all(…)`, `Promise.resolve(…)`: what they settle is what they are handed. */
const isPromiseSettle = (callee: TSESTree.Node): boolean =>
  callee.type === 'MemberExpression' &&
  callee.object.type === 'Identifier' &&
  callee.object.name === 'Promise' &&
  ['all', 'resolve'].includes(memberPropertyName(callee) ?? '');

/**
 * The read a function handed to a call returns (inline, or a `const` of the function around it):
 * `cache.loadPackage(key, () => repo.findOneOrFail(…))` returns that row, or a cached copy of it.
 */
function readOfLoaderArgument(call: TSESTree.CallExpression, fn: ProjectFunction, follow: FollowCall, hops: number): ReturnedRead | null {
  for (const argument of call.arguments) {
    let value: TSESTree.Node | null = unwrapExpression(argument);
    if (value.type === 'Identifier') value = localInitializer(fn.fn, value.name);
    if (value?.type !== 'ArrowFunctionExpression' && value?.type !== 'FunctionExpression') continue;
    const loader: ProjectFunction = { fn: value, module: fn.module, name: '' };
    for (const returned of returnedExpressions(loader)) {
      const found = readIn(returned, loader, follow, hops + 1);
      if (found) return found;
    }
  }
  return null;
}

/** The read a project function returns (a row it loaded, directly or through the functions it calls), or null. */
export const readReturnedBy = defineFunctionFact<ReturnedRead | null>('returns a database read', null, (fn, follow) => {
  for (const returned of returnedExpressions(fn)) {
    const found = readIn(returned, fn, follow, 0);
    if (found) return found;
  }
  return null;
});

/** Whether `identifier` is imported from a module of the project (a relative path or an alias), not a package. */
function importedFromProject(context: DetectContext, identifier: TSESTree.Identifier): boolean {
  const variable = scopeVariable(context.sourceCode, identifier);
  const def = variable?.defs[0];
  // `const { getMemberQuota } = require('./mongo')`: CommonJS's import of the same helper.
  const specifier =
    def?.type === 'ImportBinding' && def.parent?.type === 'ImportDeclaration'
      ? String(def.parent.source.value)
      : def?.type === 'Variable' && def.node.type === 'VariableDeclarator'
        ? requiredSpecifier(def.node.init)
        : undefined;
  return isProjectModuleSpecifier(specifier);
}

/** The name an `extends` clause gives (`BaseOrmService`, `generics.BaseRepository`). */
function superClassName(superClass: TSESTree.Node | null): string | undefined {
  const base = superClass && unwrapExpression(superClass);
  if (base?.type === 'Identifier') return base.name;
  return base?.type === 'MemberExpression' ? memberPropertyName(base) : undefined;
}

/**
 * Whether `this` in `node` is a data-access class that inherits its methods (`class StatsService
 * extends BaseOrmService`): a generic base service's or repository's loader, called on `this`.
 */
function inheritsDataAccess(node: TSESTree.Node): boolean {
  for (let current = node.parent; current; current = current.parent) {
    // A `function` of its own binds another `this`.
    if (current.type === 'FunctionDeclaration' || current.type === 'FunctionExpression') {
      if (current.parent?.type !== 'MethodDefinition') return false;
    }
    if (current.type !== 'ClassDeclaration' && current.type !== 'ClassExpression') continue;
    const base = superClassName(current.superClass);
    return base !== undefined && [current.id?.name, base].some((name) => name !== undefined && DATA_ACCESS_OBJECT_NAME.test(name));
  }
  return false;
}

const isLoaderName = (name: string): boolean => LOADER_NAME.test(name) && !ACCESS_OBJECT_NAME.test(name);

/** A loader-named helper of the project whose definition is out of reach. */
function looksLikeLoader(context: DetectContext, callee: TSESTree.Node): boolean {
  const node = unwrapExpression(callee);
  if (node.type === 'Identifier') return isLoaderName(node.name) && importedFromProject(context, node);
  return looksLikeLoaderMethod(node);
}

/** A loader-named method of a data-access object (`this.orders.loadById`, `getCustomRepository(Orders).findOrder`), or one a data-access class inherits. */
function looksLikeLoaderMethod(callee: TSESTree.Node): boolean {
  const node = unwrapExpression(callee);
  if (node.type !== 'MemberExpression') return false;
  const method = memberPropertyName(node);
  if (method === undefined || !isLoaderName(method)) return false;
  const receiver = unwrapExpression(node.object);
  if (receiver.type === 'ThisExpression') return inheritsDataAccess(node);
  // A custom repository's loader (`manager.getCustomRepository(PackageRepository).findPackageOrFail(…)`).
  if (receiver.type === 'CallExpression') {
    const accessor = unwrapExpression(receiver.callee);
    return accessor.type === 'MemberExpression' && REPOSITORY_ACCESSORS.includes(memberPropertyName(accessor) ?? '');
  }
  const receiverName =
    receiver.type === 'Identifier' ? receiver.name : receiver.type === 'MemberExpression' ? memberPropertyName(receiver) : undefined;
  return receiverName !== undefined && DATA_ACCESS_OBJECT_NAME.test(receiverName);
}

/** Bare loader names a data-access object's keyed read goes by (`this.userService.get(id)`, `store.load(orderId)`). */
const BARE_LOADER_NAMES: ReadonlySet<string> = new Set(LOADER_VERBS);
/** Receivers whose `get` reads configuration, not a row (`this.configService.get(key)`, `settingsStore.get(name)`). */
const CONFIGURATION_NAME = /config|setting|option|env|feature|flag/i;

/**
 * A data-access object's bare loader given a key held in a name (`await this.userService.get(id)`,
 * `await this.orders.load(orderId)`, the object out of reach): a row, as a loader-named method's
 * result is. A key written in place (`get('PORT')`) is a lookup of configuration or a constant,
 * and an object named for configuration is never one.
 */
function keyedGetOfService(call: TSESTree.CallExpression): boolean {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression' || !BARE_LOADER_NAMES.has(memberPropertyName(callee) ?? '')) return false;
  const key = call.arguments[0] && unwrapExpression(call.arguments[0]);
  if (key?.type !== 'Identifier' && key?.type !== 'MemberExpression') return false;
  const receiver = unwrapExpression(callee.object);
  const name =
    receiver.type === 'Identifier' ? receiver.name : receiver.type === 'MemberExpression' ? memberPropertyName(receiver) : undefined;
  if (name === undefined || CONFIGURATION_NAME.test(name)) return false;
  // A model of the project imported by name (`User.get(id)`, model-imports.ts).
  return DATA_ACCESS_OBJECT_NAME.test(name) || (receiver.type === 'Identifier' && namesImportedModel(receiver));
}

/** The read a call of a project helper is (`await loadDocument(id)`), as a read site at that call; null otherwise. */
export function helperReadSiteOf(context: DetectContext, call: TSESTree.CallExpression): ReadSite | null {
  const sibling = objectLiteralMethodOf(call.callee);
  const fn = projectFunctionOf(context, sibling ?? call.callee);
  const guessed = !fn && (looksLikeLoader(context, call.callee) || keyedGetOfService(call));
  // Any loader method's result the function saves itself: a document (saved-loader-results.ts).
  const saved = !fn && !guessed && isSavedLoaderResult(call, context.sourceCode, isLoaderName);
  const candidates: DataLibrary[] | null = guessed ? ALL_LIBRARIES : saved ? ['mongoose', 'sequelize'] : null;
  const returned = fn ? readReturnedBy(fn) : candidates ? { candidates, model: null, locked: false } : null;
  if (!returned) return null;
  return {
    candidates: [...returned.candidates],
    node: call,
    model: returned.model,
    locked: returned.locked,
    mutations: [],
    boundChecks: [],
    ...(guessed || saved ? { guessed: true as const } : {}),
  };
}

/** `(await loadBalance(id)) || {}`: an empty literal a missing row falls back to, the row otherwise. */
function withEmptyFallback(node: TSESTree.Node): TSESTree.Node {
  const parent = node.parent;
  if (parent?.type !== 'LogicalExpression' || parent.operator === '&&' || parent.left !== node) return node;
  const fallback = unwrapExpression(parent.right);
  const empty =
    (fallback.type === 'ObjectExpression' && fallback.properties.length === 0) ||
    (fallback.type === 'ArrayExpression' && fallback.elements.length === 0);
  return empty ? wrappingExpression(parent) : node;
}

/** Whether a call's result is kept in a name (`const doc = await loadDocument(id)`, `… || {}`): only such calls are asked about helpers. */
export function resultIsBound(call: TSESTree.CallExpression): boolean {
  const node = withEmptyFallback(wrappingExpression(call));
  const parent = node.parent;
  return (
    (parent?.type === 'VariableDeclarator' && parent.init === node) || (parent?.type === 'AssignmentExpression' && parent.right === node)
  );
}

/**
 * Whether a write can still come after `call` in the walk, given where the file names write
 * methods (`writeOffsets`, in order): one named after the call starts, or one in a call around it
 * (`repo.save(doc = await loadDocument(id))`), which ends after it. A read's taint only reaches
 * writes walked after it, so a helper called after the file's last write is not followed.
 */
export function mayWriteAfter(writeOffsets: readonly number[], call: TSESTree.CallExpression): boolean {
  const last = writeOffsets[writeOffsets.length - 1];
  if (last === undefined) return false;
  if (last > call.range[0]) return true;
  for (let node: TSESTree.Node | undefined = call.parent; node; node = node.parent) {
    if ((node.type === 'CallExpression' || node.type === 'TaggedTemplateExpression') && last >= node.range[0]) return true;
  }
  return false;
}
