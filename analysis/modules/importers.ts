// The other way round from the rest of this layer: which modules of the project call an export of
// the linted module. Bounded and lazy, for one question about a finding about to be reported: the
// files of the linted file's package (nearest package.json), at most MAX_LISTED directory entries
// looked at, source files under 1 MB, tests and build output left out; a file's text must name the
// export as a word before it is parsed (through projectModuleAt, cached by path and mtime), and at
// most MAX_PARSED such files are. Test files are left out unless the question is whether only tests
// and tools call the export (`includeTests`). The answer is undefined — "cannot tell" — when a bound is hit, a
// module naming the export does not parse, or a module uses the export otherwise than by calling it
// (re-exports it, hands it on, imports it dynamically).
import { nearestPackageJson } from './nearest-package-json.js';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../detect-context.js';
import { declaredVariables } from '../ast/declared-variables.js';
import { memberPropertyName } from '../ast/property-names.js';
import { isIdentifierCode } from '../source/identifier-code.js';
import { descendants } from '../sql/descendants.js';
import { exportedBinding } from './project-functions.js';
import { lintedModuleOf, projectModuleAt, type ProjectModule } from './project-module.js';
import { resolveProjectSpecifier } from './resolve-specifier.js';

const MAX_LISTED = 20_000;
const MAX_PARSED = 40;
const MAX_BYTES = 1_000_000;
const MAX_TEXTS = 5_000;
/** How long a package's file list is trusted: an editor sees a new caller after this. */
const LISTING_TTL_MS = 10_000;
const SKIPPED_DIRECTORIES = new Set(['node_modules', 'dist', 'build', 'out', 'coverage']);
const TEST_DIRECTORIES = new Set(['__tests__', '__mocks__', '__fixtures__']);
const SOURCE_FILE = /\.[cm]?[jt]sx?$/;
const DECLARATIONS = /\.d\.[cm]?ts$/;
const TEST_FILE = /\.(test|spec|stories)\.[cm]?[jt]sx?$/;

/** A call of a function (`handed: false`), or a call the function is handed to as an argument. */
export interface FunctionUse {
  call: TSESTree.CallExpression;
  handed: boolean;
}

/** The uses of the export in one module. */
export interface ExportCalls {
  module: ProjectModule;
  calls: FunctionUse[];
}

/** A source file of a package, and whether it is test code (a `*.test.*` file, a `__tests__` folder). */
interface Listed {
  path: string;
  test: boolean;
}

/** A package's listing: when it was taken or last found unchanged, its files, and every folder it read with that folder's mtime. */
const listings = new Map<string, { at: number; files: Listed[] | undefined; folders: Map<string, number> }>();
const texts = new Map<string, { mtimeMs: number; size: number; text: string | undefined }>();

function packageRootOf(directory: string): string | undefined {
  const packageJson = nearestPackageJson(directory);
  return packageJson === undefined ? undefined : dirname(packageJson);
}

/**
 * Whether no folder a listing read (nor a folder it left out for holding a package.json) has
 * changed since: an entry added, removed or renamed in a folder changes the folder's mtime. Then
 * listing again would give the same files, and one `stat` per folder costs less than reading them.
 */
function unchanged(folders: ReadonlyMap<string, number>): boolean {
  for (const [folder, mtimeMs] of folders) {
    const stat = statSync(folder, { throwIfNoEntry: false });
    if (stat?.mtimeMs !== mtimeMs) return false;
  }
  return true;
}

/** The package's source files, or undefined when there are more entries than MAX_LISTED. */
function sourceFiles(root: string): Listed[] | undefined {
  const known = listings.get(root);
  if (known && Date.now() - known.at < LISTING_TTL_MS) return known.files;
  // Past the time it is trusted, a listing whose folders are as they were is kept (`unchanged`).
  if (known && unchanged(known.folders)) {
    known.at = Date.now();
    return known.files;
  }
  const files: Listed[] = [];
  const folders = new Map<string, number>();
  // A folder changed in the two seconds before the listing may change again within its mtime's tick (a coarse file
  // system's): it is never taken as unchanged (NaN), so the listing is read again, as before.
  const settledBefore = Date.now() - 2_000;
  const settled = (mtimeMs: number | undefined): number => (mtimeMs !== undefined && mtimeMs < settledBefore ? mtimeMs : Number.NaN);
  const pending: Array<{ directory: string; test: boolean }> = [{ directory: root, test: false }];
  let listed = 0;
  let complete = true;
  while (pending.length > 0 && complete) {
    const { directory, test } = pending.pop()!;
    let entries;
    try {
      // The mtime before the entries: a change while they are read shows at the next check.
      folders.set(directory, settled(statSync(directory).mtimeMs));
      entries = readdirSync(directory, { withFileTypes: true });
    } catch {
      folders.set(directory, Number.NaN);
      continue;
    }
    for (const entry of entries) {
      if (++listed > MAX_LISTED) complete = false;
      if (entry.name.startsWith('.')) continue;
      const path = join(directory, entry.name);
      if (!entry.isDirectory() || SKIPPED_DIRECTORIES.has(entry.name)) {
        if (entry.isFile() && SOURCE_FILE.test(entry.name) && !DECLARATIONS.test(entry.name))
          files.push({ path, test: test || TEST_FILE.test(entry.name) });
        continue;
      }
      // A nested package.json is another package (a workspace's own root holds its own callers).
      if (!existsSync(join(path, 'package.json'))) pending.push({ directory: path, test: test || TEST_DIRECTORIES.has(entry.name) });
      else folders.set(path, settled(statSync(path, { throwIfNoEntry: false })?.mtimeMs));
    }
  }
  const result = complete ? files : undefined;
  listings.set(root, { at: Date.now(), files: result, folders });
  return result;
}

/** The file's text, kept while its mtime and size are unchanged; undefined over MAX_BYTES or unreadable. */
function textOf(path: string): string | undefined {
  try {
    const stat = statSync(path);
    const known = texts.get(path);
    if (known && known.mtimeMs === stat.mtimeMs && known.size === stat.size) return known.text;
    const text = stat.size <= MAX_BYTES ? readFileSync(path, 'utf8') : undefined;
    if (texts.size >= MAX_TEXTS) texts.clear();
    texts.set(path, { mtimeMs: stat.mtimeMs, size: stat.size, text });
    return text;
  } catch {
    return undefined;
  }
}

/** `name` written as a whole word in `text`. */
export function namesWord(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    const before = at > 0 ? text.charCodeAt(at - 1) : 32;
    const after = at + name.length < text.length ? text.charCodeAt(at + name.length) : 32;
    if (!isIdentifierCode(before) && !isIdentifierCode(after)) return true;
  }
  return false;
}

const staticName = (node: TSESTree.Identifier | TSESTree.StringLiteral): string => (node.type === 'Identifier' ? node.name : node.value);

/**
 * Where a reference to a function is used: the call of it (`start()`), or the call it is handed to
 * (`elector.on('elected', start)`) — the function runs where that call puts it. Undefined for any
 * other use (stored, returned, re-exported).
 */
export function usedAt(reference: TSESTree.Node): FunctionUse | undefined {
  const call = reference.parent;
  if (call?.type !== 'CallExpression') return undefined;
  if (call.callee === reference) return { call, handed: false };
  return (call.arguments as TSESTree.Node[]).includes(reference) ? { call, handed: true } : undefined;
}

/** `new Name(…)`: the construction a reference to a class is used in; undefined for any other use. */
export function constructedAt(reference: TSESTree.Node): TSESTree.NewExpression | undefined {
  const construction = reference.parent;
  return construction?.type === 'NewExpression' && construction.callee === reference ? construction : undefined;
}

/** Where one reference to the export is used, or undefined for a use that is not followed. */
type UseOf<Use> = (reference: TSESTree.Node) => Use | undefined;

/** The uses through the names `node` declares (an import specifier, a `require` declarator); undefined for any other use. */
function callsThrough<Use>(
  module: ProjectModule,
  node: TSESTree.Node,
  name: string,
  viaObject: boolean,
  useOf: UseOf<Use>,
): Use[] | undefined {
  const calls: Use[] = [];
  const local = viaObject ? undefined : localNameOf(node, name);
  for (const variable of declaredVariables(module.sourceCode, node, local)) {
    for (const reference of variable.references) {
      if (reference.init) continue;
      let callee: TSESTree.Node = reference.identifier;
      if (viaObject) {
        const member = callee.parent;
        if (member?.type !== 'MemberExpression' || member.object !== callee) return undefined;
        if (memberPropertyName(member) !== name) continue;
        callee = member;
      }
      const use = useOf(callee);
      if (!use) return undefined;
      calls.push(use);
    }
  }
  return calls;
}

/** The local name `node` binds the export `name` to: an import specifier's, or a `require` destructuring's (`{ name: local }`). */
function localNameOf(node: TSESTree.Node, name: string): string | undefined {
  if (node.type === 'ImportSpecifier') return node.local.name;
  if (node.type !== 'VariableDeclarator' || node.id.type !== 'ObjectPattern') return undefined;
  for (const property of node.id.properties) {
    if (property.type !== 'Property' || property.computed || staticName(property.key as TSESTree.Identifier) !== name) continue;
    const value = property.value.type === 'AssignmentPattern' ? property.value.left : property.value;
    return value.type === 'Identifier' ? value.name : undefined;
  }
  return '';
}

/** Whether `specifier` from `module` reaches the export `name` of the file at `target` (directly or through re-exports). */
function reaches(module: ProjectModule, specifier: string, name: string, target: string): boolean {
  const path = resolveProjectSpecifier(dirname(module.path), specifier);
  if (path === undefined) return false;
  if (path === target) return true;
  const through = projectModuleAt(path, module.context);
  return through !== undefined && exportedBinding(through, name)?.module.path === target;
}

function requiredSpecifier(node: TSESTree.Node | null | undefined): string | undefined {
  if (node?.type !== 'CallExpression' || node.callee.type !== 'Identifier' || node.callee.name !== 'require') return undefined;
  const source = node.arguments[0];
  return source?.type === 'Literal' && typeof source.value === 'string' ? source.value : undefined;
}

/** The uses `module` makes of the export `name` of the file at `target`; undefined when it uses it otherwise. */
function callsInModule<Use>(module: ProjectModule, name: string, target: string, useOf: UseOf<Use>): Use[] | undefined {
  const calls: Use[] = [];
  const handled = new Set<TSESTree.Node>();
  const add = (found: Use[] | undefined): boolean => (found ? (calls.push(...found), true) : false);
  for (const statement of module.sourceCode.ast.body) {
    if (
      statement.type === 'ImportDeclaration' &&
      statement.importKind !== 'type' &&
      // Only an import that can bind the name is resolved (resolving may parse the module it names).
      statement.specifiers.some((s) => s.type !== 'ImportSpecifier' || staticName(s.imported) === name) &&
      reaches(module, statement.source.value, name, target)
    ) {
      for (const specifier of statement.specifiers) {
        const imported = specifier.type === 'ImportSpecifier' ? specifier.imported : undefined;
        if (imported && staticName(imported) !== name) continue;
        if (specifier.type === 'ImportSpecifier' && specifier.importKind === 'type') continue;
        if (!add(callsThrough(module, specifier, name, !imported, useOf))) return undefined;
      }
    }
    // Re-exported under its own name, its callers name it too and are found; under another, they are not.
    if (statement.type === 'ExportNamedDeclaration' && statement.source)
      if (statement.specifiers.some((s) => staticName(s.local) === name && staticName(s.exported) !== name))
        if (reaches(module, statement.source.value, name, target)) return undefined;
    if (statement.type !== 'VariableDeclaration') continue;
    for (const declarator of statement.declarations) {
      const specifier = requiredSpecifier(declarator.init);
      if (specifier === undefined || !reaches(module, specifier, name, target)) continue;
      handled.add(declarator.init!);
      if (!add(callsThrough(module, declarator, name, declarator.id.type === 'Identifier', useOf))) return undefined;
    }
  }
  // A `require` or `import()` of the module anywhere else: what it does with the export is not followed.
  for (const node of descendants(module.sourceCode.ast, module.sourceCode.visitorKeys)) {
    const specifier =
      node.type === 'ImportExpression' && node.source.type === 'Literal'
        ? String(node.source.value)
        : handled.has(node)
          ? undefined
          : requiredSpecifier(node);
    if (specifier !== undefined && reaches(module, specifier, name, target)) return undefined;
  }
  return calls;
}

/**
 * The calls other modules of the linted file's package make to its export `name`, module by
 * module, or undefined when they cannot all be read (see the file's head). Test files count only
 * with `includeTests`.
 */
export function callsOfExport(context: DetectContext, name: string, options: { includeTests?: boolean } = {}): ExportCalls[] | undefined {
  return usesOfExport(context, name, usedAt, options);
}

/** `name.method(…)`: the method a reference to an exported object is called by; undefined for any other use. */
export function methodCalledOn(reference: TSESTree.Node): string | undefined {
  const member = reference.parent;
  if (member?.type !== 'MemberExpression' || member.object !== reference) return undefined;
  const call = member.parent;
  return call?.type === 'CallExpression' && call.callee === member ? memberPropertyName(member) : undefined;
}

/** The methods other modules of the linted file's package call on its exported object `name` (`job.start()`), as `callsOfExport`. */
export function methodCallsOfExport(context: DetectContext, name: string): Array<{ module: ProjectModule; calls: string[] }> | undefined {
  return usesOfExport(context, name, methodCalledOn);
}

/** The constructions (`new Name(…)`) other modules of the linted file's package make of its exported class `name`, as `callsOfExport`. */
export function constructionsOfExport(
  context: DetectContext,
  name: string,
): Array<{ module: ProjectModule; calls: TSESTree.NewExpression[] }> | undefined {
  return usesOfExport(context, name, constructedAt);
}

function usesOfExport<Use>(
  context: DetectContext,
  name: string,
  useOf: UseOf<Use>,
  options: { includeTests?: boolean } = {},
): Array<{ module: ProjectModule; calls: Use[] }> | undefined {
  try {
    const linted = lintedModuleOf(context);
    const root = packageRootOf(dirname(linted.path));
    const files = root === undefined ? undefined : sourceFiles(root);
    if (!files) return undefined;
    const found: Array<{ module: ProjectModule; calls: Use[] }> = [];
    let parsed = 0;
    for (const { path, test } of files) {
      if (path === linted.path || (test && options.includeTests !== true)) continue;
      const text = textOf(path);
      if (text === undefined || !namesWord(text, name)) continue;
      if (++parsed > MAX_PARSED) return undefined;
      const module = projectModuleAt(path, context);
      if (!module) return undefined;
      const calls = callsInModule(module, name, linted.path, useOf);
      if (!calls) return undefined;
      if (calls.length > 0) found.push({ module, calls });
    }
    return found;
  } catch {
    return undefined;
  }
}

/** The specifiers a module imports, requires or imports dynamically (literal ones). */
function specifiersIn(module: ProjectModule): string[] {
  const out: string[] = [];
  for (const node of descendants(module.sourceCode.ast, module.sourceCode.visitorKeys)) {
    if (
      (node.type === 'ImportDeclaration' || node.type === 'ExportAllDeclaration' || node.type === 'ExportNamedDeclaration') &&
      node.source
    )
      out.push(String(node.source.value));
    else if (node.type === 'ImportExpression' && node.source.type === 'Literal') out.push(String(node.source.value));
    else {
      const required = requiredSpecifier(node);
      if (required !== undefined) out.push(required);
    }
  }
  return out;
}

/**
 * The other modules of the linted file's package that import it (an import, a re-export, a
 * `require`, an `import()` with a literal specifier), tests included; undefined when they cannot
 * all be read (see the file's head). A file's text must hold the linted file's base name before
 * it is parsed.
 */
export function modulesImporting(context: DetectContext): ProjectModule[] | undefined {
  try {
    const linted = lintedModuleOf(context);
    const root = packageRootOf(dirname(linted.path));
    const files = root === undefined ? undefined : sourceFiles(root);
    if (!files) return undefined;
    const stem = basename(linted.path).replace(/\.[cm]?[jt]sx?$/, '');
    const name = stem === 'index' ? basename(dirname(linted.path)) : stem;
    const found: ProjectModule[] = [];
    let parsed = 0;
    for (const { path } of files) {
      if (path === linted.path) continue;
      const text = textOf(path);
      if (text === undefined || !text.includes(name)) continue;
      if (++parsed > MAX_PARSED) return undefined;
      const module = projectModuleAt(path, context);
      if (!module) return undefined;
      if (specifiersIn(module).some((specifier) => resolveProjectSpecifier(dirname(module.path), specifier) === linted.path))
        found.push(module);
    }
    return found;
  } catch {
    return undefined;
  }
}
