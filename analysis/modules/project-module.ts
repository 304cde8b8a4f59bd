// A project module parsed once per process with the parser the linted file uses, kept while its
// file is unchanged (path, mtime and size), so a re-lint in an editor re-reads nothing that did
// not change. Bounded: files over MAX_BYTES (generated code) and modules past MAX_MODULES are not
// parsed; a file that is missing or does not parse is remembered as such. Never throws.
// Whether a file changed is looked at once per linted file, not at every question about it: each
// new linted file (a new AST: every lint, every editor re-lint) starts a new generation, and a
// module's stat and a specifier's resolution are trusted for the rest of that generation.
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute } from 'node:path';
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { DetectContext } from '../detect-context.js';
import { resolveProjectSpecifier } from './resolve-specifier.js';
import { onForgetLastFile } from '../source/last-file-cache.js';

export interface ProjectModule {
  /** Absolute path of the module's file. */
  path: string;
  sourceCode: Readonly<SourceCode>;
  /** A detect context for the module: run per-file analyses (imported references …) on it. */
  context: DetectContext;
}

const MAX_BYTES = 1_000_000;
const MAX_MODULES = 5000;

interface ParserLike {
  parseForESLint?: (
    text: string,
    options: Record<string, unknown>,
  ) => { ast: unknown; scopeManager?: unknown; visitorKeys?: unknown; services?: unknown };
  parse?: (text: string, options: Record<string, unknown>) => unknown;
}

interface CacheEntry {
  mtimeMs: number;
  size: number;
  module: ProjectModule | undefined;
  /** The generation whose linted file last saw this file unchanged. */
  checked: number;
}

const modules = new Map<string, CacheEntry>();
/** The linted file being asked about, as a module: one slot, keyed by its AST (oxlint reuses one SourceCode object for every file). */
let linted: { ast: object; module: ProjectModule } | undefined;
onForgetLastFile(() => (linted = undefined));
/** Bumped for each new linted file: what was looked at on disk for the previous one is looked at again. */
let generation = 0;
/** Where a specifier resolves from a directory, in the generation it was resolved in. */
const resolved = new Map<string, { generation: number; path: string | undefined }>();
const MAX_RESOLVED = 50_000;

// `__filename` is this module's path in a CommonJS build; in ESM a global one can exist that is no
// path (`node -e` and eval'd workers define `[eval]` / `[worker eval]`), so only an absolute one counts.
const localRequire = createRequire(typeof __filename === 'string' && isAbsolute(__filename) ? __filename : import.meta.url);
let eslintApi: { SourceCode: new (config: Record<string, unknown>) => unknown; scope?: unknown } | null | undefined;
let eslintScope: { analyze: (ast: unknown, options: Record<string, unknown>) => unknown } | null | undefined;
let installedParser: ParserLike | null | undefined;

function loadOptional<T>(name: string): T | null {
  try {
    return localRequire(name) as T;
  } catch {
    return null;
  }
}

/** Sets `parent` on every node: ESLint does it during its traversal, a bare parse does not. */
function setParents(root: TSESTree.Node, visitorKeys: Readonly<Record<string, readonly string[] | undefined>>): void {
  const stack: TSESTree.Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    for (const key of visitorKeys[node.type] ?? []) {
      const child = (node as unknown as Record<string, unknown>)[key];
      for (const item of Array.isArray(child) ? child : [child]) {
        if (item && typeof (item as TSESTree.Node).type === 'string') {
          (item as { parent?: TSESTree.Node }).parent = node;
          stack.push(item as TSESTree.Node);
        }
      }
    }
  }
}

function parse(path: string, text: string, parser: ParserLike, fallbackKeys: SourceCode['visitorKeys']): Readonly<SourceCode> | undefined {
  eslintApi ??= loadOptional('eslint');
  if (!eslintApi) return undefined;
  const typescript = /\.[cm]?tsx?$/.test(path);
  const options = {
    ecmaVersion: 'latest',
    sourceType: /\.c[jt]s$/.test(path) ? 'script' : 'module',
    range: true,
    loc: true,
    tokens: true,
    comment: true,
    filePath: path,
    ecmaFeatures: { jsx: /x$/.test(path) || !typescript, globalReturn: false },
    // A module parsed for its summary never needs the type-aware program.
    project: undefined,
    projectService: undefined,
  };
  let ast: TSESTree.Program;
  let scopeManager: unknown;
  let visitorKeys: Record<string, readonly string[]> | undefined;
  if (parser.parseForESLint) {
    const result = parser.parseForESLint(text, options);
    ast = result.ast as TSESTree.Program;
    scopeManager = result.scopeManager;
    visitorKeys = result.visitorKeys as Record<string, readonly string[]> | undefined;
  } else if (parser.parse && !typescript) {
    ast = parser.parse(text, options) as TSESTree.Program;
  } else {
    return undefined;
  }
  if (!scopeManager) {
    eslintScope ??= loadOptional('eslint-scope');
    if (!eslintScope) return undefined;
    scopeManager = eslintScope.analyze(ast, {
      ecmaVersion: 2022,
      sourceType: options.sourceType,
      nodejsScope: options.sourceType === 'script',
    });
  }
  // espree gives no keys with its AST; the linted file's (ESLint's own for espree) fit it.
  visitorKeys ??= fallbackKeys as Record<string, readonly string[]>;
  setParents(ast, visitorKeys);
  return new eslintApi.SourceCode({ text, ast, scopeManager, visitorKeys, parserServices: {} }) as Readonly<SourceCode>;
}

function moduleContext(path: string, sourceCode: Readonly<SourceCode>, from: DetectContext): DetectContext {
  return {
    id: from.id,
    options: [],
    sourceCode,
    settings: from.settings,
    filename: path,
    physicalFilename: path,
    cwd: from.cwd,
    languageOptions: { ...from.languageOptions, sourceType: sourceCode.ast.sourceType },
  } as unknown as DetectContext;
}

/** The linted file as a module (the starting point of every cross-file question). */
export function lintedModuleOf(context: DetectContext): ProjectModule {
  const ast = context.sourceCode.ast;
  if (linted?.ast !== ast) {
    generation++;
    linted = { ast, module: { path: context.physicalFilename ?? context.filename, sourceCode: context.sourceCode, context } };
  }
  return linted.module;
}

/**
 * The parsers to try for other modules, in order: the linted file's own, then typescript-eslint's
 * parser when it is installed (it reads JavaScript and TypeScript alike). The second matters where
 * the engine's parser cannot parse for a rule: oxlint's JS plugins get a parser whose `parse` is
 * not implemented and that has no `parseForESLint`.
 */
function parsersFor(from: DetectContext): ParserLike[] {
  const own = (from.languageOptions as { parser?: ParserLike } | undefined)?.parser;
  installedParser ??= loadOptional<ParserLike>('@typescript-eslint/parser');
  return [own, installedParser].filter((parser, i, all): parser is ParserLike => !!parser && all.indexOf(parser) === i);
}

/** The module's SourceCode from the first parser that reads it. */
function parseWithAny(path: string, text: string, from: DetectContext): Readonly<SourceCode> | undefined {
  for (const parser of parsersFor(from)) {
    try {
      const sourceCode = parse(path, text, parser, from.sourceCode.visitorKeys);
      if (sourceCode) return sourceCode;
    } catch {
      // A syntax error, or a parser that cannot parse here: try the next one.
    }
  }
  return undefined;
}

/**
 * The project module at `path`, parsed with the parser of `from`. `mayHold`, when given, is asked
 * of the text of a module not parsed yet: `false` leaves it unparsed (and unremembered) — a
 * question that only this text can answer yes to (a name it must spell) costs a read, not a parse.
 */
export function projectModuleAt(path: string, from: DetectContext, mayHold?: (text: string) => boolean): ProjectModule | undefined {
  const known = modules.get(path);
  if (known?.checked === generation) return known.module;
  let stat;
  try {
    stat = statSync(path);
  } catch {
    modules.delete(path);
    return undefined;
  }
  const cached = known;
  if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) {
    cached.checked = generation;
    return cached.module;
  }
  let module: ProjectModule | undefined;
  if (stat.size <= MAX_BYTES && (cached || modules.size < MAX_MODULES)) {
    try {
      const text = readFileSync(path, 'utf8');
      if (mayHold && !mayHold(text)) return undefined;
      const sourceCode = parseWithAny(path, text, from);
      module = sourceCode ? { path, sourceCode, context: moduleContext(path, sourceCode, from) } : undefined;
    } catch {
      module = undefined;
    }
  }
  modules.set(path, { mtimeMs: stat.mtimeMs, size: stat.size, module, checked: generation });
  return module;
}

/**
 * The project module `specifier` names from `module` (a project file, never node_modules);
 * `mayHold` as for `projectModuleAt`.
 */
export function importedProjectModule(
  module: ProjectModule,
  specifier: string,
  mayHold?: (text: string) => boolean,
): ProjectModule | undefined {
  const directory = dirname(module.path);
  const key = `${directory}\0${specifier}`;
  let hit = resolved.get(key);
  if (hit?.generation !== generation) {
    if (resolved.size >= MAX_RESOLVED) resolved.clear();
    hit = { generation, path: resolveProjectSpecifier(directory, specifier) };
    resolved.set(key, hit);
  }
  const path = hit.path;
  return path === undefined || path === module.path ? undefined : projectModuleAt(path, module.context, mayHold);
}

/** How many modules are parsed and kept (for tests and the editor benchmark). */
export function projectModuleCount(): number {
  let count = 0;
  for (const entry of modules.values()) if (entry.module) count++;
  return count;
}

/** Forget every parsed module. */
export function clearProjectModules(): void {
  modules.clear();
  resolved.clear();
}
