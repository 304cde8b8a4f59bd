// Where the taint engine needs to walk. Every finding is made at a write — a write method's call,
// SQL holding UPDATE, or a change inside a save hook — and a taint never crosses from one function
// into a function beside it (taint-frames.ts: a name is tainted only in the function holding the
// read, or in one nested in it). So the functions of a unit (a top-level statement or a class
// member) that names no write cannot lead to a finding, and the walk skips them: in a large file
// with reads and writes that is most of its code. Code outside functions is always walked: the
// names it binds (`const repo = …`, imports) reach every function.
//
// Where a unit names a write is read from the text: the offsets of write-method calls, of save
// hook words, and of SQL strings holding UPDATE. A SQL string outside every function (a module
// constant, a class field) is sent from a function that names it: each name on its way
// (`const SQL = …`, `{ update: … }`, `exports.sql = …`, a field `sql = …`) marks where it is used. A
// string outside functions whose way has no name cannot be followed: then every function is
// walked (`null`).
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type { RuleListener } from '@typescript-eslint/utils/ts-eslint';
import { tokenAt, type TokenLike } from '../../analysis/source/string-text.js';
import { isIdentifierCode } from '../../analysis/source/identifier-code.js';
import { isFunctionNode } from '../../analysis/sql/enclosing-function.js';
import { partitionPoint } from '../../analysis/source/partition-point.js';

type Node = TSESTree.Node;
type VisitorKeys = Readonly<Record<string, readonly string[] | undefined>>;

const UPDATE_IN_TEXT = /update/gi;

/** The children of `node` a traversal visits: its visitor keys, or (a node type the keys lack) every key holding a node, as ESLint does. */
function childKeys(node: Node, visitorKeys: VisitorKeys): readonly string[] {
  return (
    visitorKeys[node.type] ??
    Object.keys(node).filter((key) => key !== 'parent' && key !== 'leadingComments' && key !== 'trailingComments' && key[0] !== '_')
  );
}

const holds = (child: unknown, at: number): child is Node =>
  child !== null &&
  typeof child === 'object' &&
  typeof (child as Node).type === 'string' &&
  (child as Node).range[0] <= at &&
  at < (child as Node).range[1];

/**
 * The child of `node` whose range holds `at`, or undefined. A list of children (a program's or a
 * class's body) is in source order: searched by halves, so that finding the way to each of a big
 * file's strings costs its depth, not the number of its top-level statements.
 */
function childAt(node: Node, at: number, visitorKeys: VisitorKeys): Node | undefined {
  for (const key of childKeys(node, visitorKeys)) {
    const value = (node as unknown as Record<string, unknown>)[key];
    if (!Array.isArray(value)) {
      if (holds(value, at)) return value;
      continue;
    }
    let low = 0;
    let high = value.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const child = value[middle] as Node | null;
      // A hole (`[a, , b]`): the list is read one by one.
      if (!child) return (value as unknown[]).find((each): each is Node => holds(each, at));
      if (child.range[1] <= at) low = middle + 1;
      else high = middle;
    }
    if (low < value.length && holds(value[low], at)) return value[low] as Node;
  }
  return undefined;
}

/** The name a node on a value's way gives it: a declared const, an object or class key, an assigned member or variable. */
function nameOn(node: Node): string | undefined {
  switch (node.type) {
    case 'VariableDeclarator':
      return node.id.type === 'Identifier' ? node.id.name : undefined;
    case 'Property':
    case 'PropertyDefinition':
      return !node.computed && node.key.type === 'Identifier' ? node.key.name : undefined;
    case 'AssignmentExpression':
      if (node.left.type === 'Identifier') return node.left.name;
      return node.left.type === 'MemberExpression' && !node.left.computed && node.left.property.type === 'Identifier'
        ? node.left.property.name
        : undefined;
    default:
      return undefined;
  }
}

/**
 * The names on the way from the program to the string at `at`, or `undefined` when a function
 * holds the string (the string marks its own unit) — `[]` when none names it.
 */
function namesOnWayTo(program: TSESTree.Program, at: number, visitorKeys: VisitorKeys): string[] | undefined {
  const names: string[] = [];
  let node: Node | undefined = program;
  while (node) {
    if (isFunctionNode(node)) return undefined;
    const name = nameOn(node);
    if (name !== undefined) names.push(name);
    node = childAt(node, at, visitorKeys);
  }
  return names;
}

/**
 * The names the unit holding `at` goes by, down to the function that holds it: a declared function
 * or `const`, a class member, an object key, an assigned member (`exports.persist = …`).
 */
function unitNamesAt(program: TSESTree.Program, at: number, visitorKeys: VisitorKeys): string[] {
  const names: string[] = [];
  for (let node: Node | undefined = program; node; node = childAt(node, at, visitorKeys)) {
    if (node.type === 'FunctionDeclaration' && node.id) names.push(node.id.name);
    if (isFunctionNode(node)) break;
    const name = node.type === 'MethodDefinition' && node.key.type === 'Identifier' ? node.key.name : nameOn(node);
    if (name !== undefined) names.push(name);
  }
  return names;
}

/** Offsets of calls of `name` (`persist(`, `this.persist (`) in `text`. */
function callOffsetsOfName(text: string, name: string, into: number[]): void {
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + name.length)) {
    if (isIdentifierCode(text.charCodeAt(at - 1))) continue;
    let next = at + name.length;
    while (text.charCodeAt(next) === 32) next++;
    if (text.charCodeAt(next) === 40) into.push(at);
  }
}

/** Offsets of `name` as a whole identifier in `text`. */
function offsetsOfName(text: string, name: string, into: number[]): void {
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + name.length)) {
    if (!isIdentifierCode(text.charCodeAt(at - 1)) && !isIdentifierCode(text.charCodeAt(at + name.length))) into.push(at);
  }
}

/**
 * Where the file names a write, sorted: `writeCalls` (write-method calls), `hookWords` (save
 * hooks) and, when the file's strings hold SQL UPDATE (`sqlWrites`), those strings and the names
 * that carry them out of top-level code. `null` when a SQL string cannot be followed. The calls of
 * a function of the file that calls a write method are marked too (`await this.persist(doc)` with
 * `persist` saving what it is handed): a loaded row changed and handed to it is written there.
 */
export function writeMarkers(
  sourceCode: Readonly<TSESLint.SourceCode>,
  writeCalls: readonly number[],
  hookWords: readonly number[],
  sqlWrites: boolean,
): number[] | null {
  const markers = [...writeCalls, ...hookWords];
  const writers = new Set<string>();
  for (const at of writeCalls)
    for (const name of unitNamesAt(sourceCode.ast as TSESTree.Program, at, sourceCode.visitorKeys)) writers.add(name);
  for (const name of writers) callOffsetsOfName(sourceCode.text, name, markers);
  if (sqlWrites) {
    const text = sourceCode.text;
    const tokens = sourceCode.ast.tokens as readonly TokenLike[];
    const program = sourceCode.ast as TSESTree.Program;
    const named = new Set<string>();
    let from = 0;
    UPDATE_IN_TEXT.lastIndex = 0;
    for (let match = UPDATE_IN_TEXT.exec(text); match; match = UPDATE_IN_TEXT.exec(text)) {
      const at = match.index;
      from = tokenAt(tokens, at, from);
      const token = tokens[from];
      if (!token || token.range[0] > at || (token.type !== 'String' && token.type !== 'Template')) continue;
      markers.push(at);
      const names = namesOnWayTo(program, at, sourceCode.visitorKeys);
      if (names === undefined) continue;
      if (names.length === 0) return null;
      for (const name of names) named.add(name);
    }
    for (const name of named) offsetsOfName(text, name, markers);
  }
  return markers.sort((a, b) => a - b);
}

/** Whether a marker lies in [start, end). */
function marked(markers: readonly number[], start: number, end: number): boolean {
  const first = partitionPoint(markers, (marker) => marker < start);
  return first < markers.length && markers[first]! < end;
}

/** The unit holding a function: its ancestor that is a top-level statement or a class member, with that member's decorators. */
function unitRange(fn: Node): [number, number] {
  let node = fn;
  while (node.parent && node.parent.type !== 'Program' && node.parent.type !== 'ClassBody') node = node.parent;
  const decorators = (node as { decorators?: readonly Node[] }).decorators;
  const start = decorators && decorators.length > 0 ? Math.min(node.range[0], decorators[0]!.range[0]) : node.range[0];
  return [start, node.range[1]];
}

/** Whether the unit holding `fn` holds a write marker: a unit without one holds no write the engine could find. */
export function inMarkedUnit(markers: readonly number[], fn: Node): boolean {
  const [start, end] = unitRange(fn);
  return marked(markers, start, end);
}

/** Keys that hold only types (`x: Foo`, `<T>`, `implements I`): no code the engine reads sits under them. */
const TYPE_KEYS: ReadonlySet<string> = new Set([
  'typeAnnotation',
  'returnType',
  'typeParameters',
  'typeArguments',
  'superTypeArguments',
  'superTypeParameters',
  'implements',
]);
/** Nodes with no code under them for the engine: leaves, and declarations of types alone. */
const NOTHING_UNDER: ReadonlySet<string> = new Set([
  'Identifier',
  'Literal',
  'TemplateElement',
  'PrivateIdentifier',
  'ThisExpression',
  'Super',
  'EmptyStatement',
  'DebuggerStatement',
  'TSInterfaceDeclaration',
  'TSTypeAliasDeclaration',
  'TSDeclareFunction',
]);

/** Each node type's keys to walk, per visitor-key set: its visitor keys without the type-only ones. */
const walkedKeys = new WeakMap<VisitorKeys, Map<string, readonly string[]>>();
function walkedKeysOf(node: Node, visitorKeys: VisitorKeys): readonly string[] {
  let byType = walkedKeys.get(visitorKeys);
  if (!byType) walkedKeys.set(visitorKeys, (byType = new Map()));
  let keys = byType.get(node.type);
  if (!keys) {
    keys = childKeys(node, visitorKeys).filter((key) => !TYPE_KEYS.has(key));
    // A type the visitor keys lack is read from its own keys, which may differ between nodes.
    if (visitorKeys[node.type]) byType.set(node.type, keys);
  }
  return keys;
}

/** What the walk does at a node of one type: its listeners, and whether nothing under it is walked. */
interface TypeVisit {
  enter: ((node: Node) => void) | undefined;
  exit: ((node: Node) => void) | undefined;
  /** A leaf or a type declaration no listener is for: not entered at all. */
  skip: boolean;
  /** Whether the type is a function (where a window may open). */
  fn: boolean;
  /** The keys to walk, when the visitor keys give them (otherwise read per node). */
  keys: readonly string[] | undefined;
}

/**
 * Runs `listeners` (simple `Type` / `Type:exit` selectors, as ESLint would call them, in the same
 * order) over `program`, entering a function outside every marked unit never. Types, leaves and
 * type declarations are not entered: no listener of the engine is for them, and no code is under them.
 * What is done at each node type is looked up once per walk and type (one map read per node).
 */
export function walkWriteWindows(
  program: TSESTree.Program,
  listeners: RuleListener,
  visitorKeys: VisitorKeys,
  markers: readonly number[],
): void {
  const handlers = listeners as Record<string, ((node: Node) => void) | undefined>;
  const visits = new Map<string, TypeVisit>();
  const visitOf = (node: Node): TypeVisit => {
    let visit = visits.get(node.type);
    if (!visit) {
      const enter = handlers[node.type];
      const exit = handlers[`${node.type}:exit`];
      visit = {
        enter,
        exit,
        skip: NOTHING_UNDER.has(node.type) && !enter && !exit,
        fn: isFunctionNode(node),
        keys: visitorKeys[node.type] ? walkedKeysOf(node, visitorKeys) : undefined,
      };
      visits.set(node.type, visit);
    }
    return visit;
  };
  const walk = (node: Node, inWindow: boolean): void => {
    const visit = visitOf(node);
    if (visit.skip) return;
    if (!inWindow && visit.fn) {
      const [start, end] = unitRange(node);
      if (!marked(markers, start, end)) return;
      inWindow = true;
    }
    visit.enter?.(node);
    const keys = visit.keys ?? walkedKeysOf(node, visitorKeys);
    for (let k = 0; k < keys.length; k++) {
      const value = (node as unknown as Record<string, unknown>)[keys[k]!];
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const child = value[i] as Node | null;
          if (child && typeof child.type === 'string') walk(child, inWindow);
        }
      } else if (value && typeof (value as Node).type === 'string') walk(value as Node, inWindow);
    }
    visit.exit?.(node);
  };
  walk(program, false);
}
