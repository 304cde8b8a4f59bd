// "The SQL text a node holds": one adapter that turns the many ESTree shapes SQL arrives in (string
// literals, template literals, tagged templates, `+` concatenations, `{ text }` configs, a
// constant passed by name) into one model, `SqlText`, that rules reason about. A position in
// the SQL maps back to the source, so a report can sit on a function name inside the literal.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { scopeVariable } from '../ast/scope-variable.js';
import { perFileMap } from '../source/last-file-cache.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';

type Node = TSESTree.Node;
type SourceCode = Readonly<TSESLint.SourceCode>;

/** One contiguous piece of the SQL text and where it came from. */
interface Segment {
  /** Offset of this piece in `SqlText.text`. */
  textStart: number;
  textEnd: number;
  /** `code`: literal text; `parameter`: a template placeholder, rendered as `$n`. */
  kind: 'code' | 'parameter';
  /** The literal / quasi / placeholder expression. */
  node: Node;
  /** Source offset of each code unit of the piece, plus one past the end (computed on first use). */
  offsets: () => number[];
}

export interface SqlText {
  /** The SQL, with template placeholders rendered as `$1`, `$2`… (they are parameters). */
  text: string;
  /** The expression that holds the SQL (the literal, template, tagged template or concatenation). */
  node: Node;
  /** The placeholder expressions, in order (`$1` is `parameters[0]`). */
  parameters: Node[];
  /** Source offset of position `offset` of `text`. */
  offsetToIndex(offset: number): number;
  /** Line/column of position `offset` of `text`. */
  offsetToLoc(offset: number): TSESTree.Position;
  /** The source location of `text.slice(start, end)`. */
  locOf(start: number, end: number): TSESTree.SourceLocation;
  /** The source range of `text.slice(start, end)` when it is written verbatim there (safe to replace). */
  rangeOf(start: number, end: number): [number, number] | undefined;
}

const cacheIn = perFileMap<Node, SqlText | null>();
const MAX_CONSTANT_DEPTH = 4;

/**
 * The SQL an expression evaluates to, when it is statically known: a string literal, a template
 * literal (placeholders become parameters), a tagged template's template, a `+` concatenation of
 * those, or a same-file constant bound to one. `undefined` for anything else. Cached per node.
 */
export function sqlTextOf(node: Node | undefined | null, sourceCode: SourceCode): SqlText | undefined {
  if (!node) return undefined;
  const cache = cacheIn(sourceCode);
  const hit = cache.get(node);
  if (hit !== undefined) return hit ?? undefined;
  let result: SqlText | undefined;
  try {
    result = build(node, sourceCode, 0);
  } catch {
    // A shape we did not foresee never breaks linting.
    result = undefined;
  }
  cache.set(node, result ?? null);
  return result;
}

function build(node: Node, sourceCode: SourceCode, depth: number): SqlText | undefined {
  const segments = collectSegments(node, sourceCode, depth);
  if (!segments) return undefined;
  const parameters: Node[] = [];
  let text = '';
  const placed: Segment[] = [];
  for (const piece of segments) {
    const textStart = text.length;
    if (piece.kind === 'parameter') {
      parameters.push(piece.node);
      text += `$${parameters.length}`;
      placed.push({ ...piece, textStart, textEnd: text.length });
    } else {
      text += piece.text;
      placed.push({ ...piece, textStart, textEnd: text.length });
    }
  }
  const root = stripWrappers(node, sourceCode, depth) ?? node;
  return makeSqlText(text, root, parameters, placed, sourceCode);
}

function makeSqlText(text: string, node: Node, parameters: Node[], segments: Segment[], sourceCode: SourceCode): SqlText {
  const segmentAt = (offset: number): Segment | undefined =>
    segments.find((s) => offset >= s.textStart && offset < s.textEnd) ??
    (offset === text.length ? segments[segments.length - 1] : undefined);
  const offsetToIndex = (offset: number): number => {
    const segment = segmentAt(offset);
    if (!segment) return node.range[0];
    if (segment.kind === 'parameter') return offset === segment.textEnd ? segment.node.range[1] : segment.node.range[0];
    return segment.offsets()[offset - segment.textStart] ?? segment.node.range[1];
  };
  return {
    text,
    node,
    parameters,
    offsetToIndex,
    offsetToLoc: (offset) => sourceCode.getLocFromIndex(offsetToIndex(offset)),
    locOf(start, end) {
      const startIndex = offsetToIndex(start);
      // The end maps through the last code unit, so it stays inside its own segment.
      const endIndex = end > start ? offsetToIndexEnd(end) : startIndex;
      return { start: sourceCode.getLocFromIndex(startIndex), end: sourceCode.getLocFromIndex(endIndex) };
    },
    rangeOf(start, end) {
      const segment = segmentAt(start);
      if (!segment || segment.kind !== 'code' || end > segment.textEnd || end <= start) return undefined;
      const from = segment.offsets()[start - segment.textStart];
      const to = segment.offsets()[end - segment.textStart];
      if (from === undefined || to === undefined) return undefined;
      // Verbatim only: no escape sequence inside the range.
      return to - from === end - start ? [from, to] : undefined;
    },
  };
  function offsetToIndexEnd(end: number): number {
    const segment = segmentAt(end - 1);
    if (!segment) return node.range[1];
    if (segment.kind === 'parameter') return segment.node.range[1];
    return segment.offsets()[end - segment.textStart] ?? segment.node.range[1];
  }
}

type Piece =
  { kind: 'code'; text: string; node: Node; offsets: () => number[] } | { kind: 'parameter'; node: Node; offsets: () => number[] };

/** Most SQL texts are never reported on: map offsets only when a location is asked for. */
function lazy(compute: () => number[]): () => number[] {
  let value: number[] | undefined;
  return () => (value ??= compute());
}

/** The expression itself, or the constant's initializer an identifier is bound to. */
function stripWrappers(node: Node, sourceCode: SourceCode, depth: number): Node | undefined {
  let current: Node = node;
  for (;;) {
    current = unwrapExpression(current);
    if (current.type === 'TaggedTemplateExpression') {
      current = current.quasi;
    } else if (current.type === 'Identifier') {
      if (depth >= MAX_CONSTANT_DEPTH) return undefined;
      const init = constantInitializer(current, sourceCode);
      if (!init) return undefined;
      current = init;
      depth++;
    } else {
      return current;
    }
  }
}

function collectSegments(node: Node, sourceCode: SourceCode, depth: number): Piece[] | undefined {
  const target = stripWrappers(node, sourceCode, depth);
  if (!target) return undefined;
  if (target.type === 'Literal') {
    if (typeof target.value !== 'string') return undefined;
    const raw = sourceCode.text.slice(target.range[0] + 1, target.range[1] - 1);
    return [
      {
        kind: 'code',
        text: target.value,
        node: target,
        offsets: lazy(() => cookedOffsets(raw, target.value as string, target.range[0] + 1, false)),
      },
    ];
  }
  if (target.type === 'TemplateLiteral') {
    const pieces: Piece[] = [];
    target.quasis.forEach((quasi, i) => {
      const cooked = quasi.value.cooked;
      if (cooked === null || cooked === undefined) throw new Error('invalid escape in template');
      const delimiter = sourceCode.text[quasi.range[0]];
      const rawStart = delimiter === '`' || delimiter === '}' ? quasi.range[0] + 1 : quasi.range[0];
      pieces.push({ kind: 'code', text: cooked, node: quasi, offsets: lazy(() => cookedOffsets(quasi.value.raw, cooked, rawStart, true)) });
      const expression = target.expressions[i];
      if (expression) pieces.push({ kind: 'parameter', node: expression, offsets: () => [] });
    });
    return pieces;
  }
  if (target.type === 'BinaryExpression' && target.operator === '+') {
    const left = collectSegments(target.left, sourceCode, depth + 1);
    const right = left && collectSegments(target.right, sourceCode, depth + 1);
    return left && right ? [...left, ...right] : undefined;
  }
  return undefined;
}

/** The initializer of a same-file `const` (or a never-reassigned `let`/`var`) named by `id`. */
export function constantInitializer(id: TSESTree.Identifier, sourceCode: SourceCode): Node | undefined {
  const variable = scopeVariable(sourceCode, id);
  if (!variable || variable.defs.length !== 1) return undefined;
  const def = variable.defs[0];
  if (!def || def.type !== 'Variable' || def.node.type !== 'VariableDeclarator' || def.node.id.type !== 'Identifier') return undefined;
  const declaration = def.parent;
  const writes = variable.references.filter((r) => r.isWrite()).length;
  if (declaration?.type === 'VariableDeclaration' && declaration.kind !== 'const' && writes > 1) return undefined;
  return def.node.init ?? undefined;
}

/**
 * Source offsets for each UTF-16 unit of `cooked` (plus one past the end), walking the escape
 * sequences of `raw` (which starts at `rawStart`). Falls back to a linear map when the walk
 * disagrees with the parser's cooked value.
 */
function cookedOffsets(raw: string, cooked: string, rawStart: number, template: boolean): number[] {
  const offsets: number[] = [];
  let i = 0;
  while (i < raw.length) {
    const c = raw[i] as string;
    const at = rawStart + i;
    if (c === '\\') {
      const e = raw[i + 1] ?? '';
      if (e === '\r') {
        i += raw[i + 2] === '\n' ? 3 : 2; // line continuation: nothing cooked
      } else if (e === '\n' || e === '\u2028' || e === '\u2029') {
        i += 2;
      } else if (e === 'x') {
        offsets.push(at);
        i += 4;
      } else if (e === 'u' && raw[i + 2] === '{') {
        const close = raw.indexOf('}', i);
        const codePoint = Number.parseInt(raw.slice(i + 3, close), 16);
        offsets.push(at);
        if (codePoint > 0xffff) offsets.push(at);
        i = close + 1;
      } else if (e === 'u') {
        offsets.push(at);
        i += 6;
      } else if (!template && /[0-7]/.test(e)) {
        let j = i + 2;
        while (j < i + 4 && /[0-7]/.test(raw[j] ?? '')) j++;
        offsets.push(at);
        i = j;
      } else {
        offsets.push(at);
        i += 2;
      }
    } else if (template && c === '\r' && raw[i + 1] === '\n') {
      offsets.push(at); // templates cook CRLF to LF
      i += 2;
    } else {
      offsets.push(at);
      i++;
    }
  }
  offsets.push(rawStart + raw.length);
  if (offsets.length !== cooked.length + 1) return Array.from({ length: cooked.length + 1 }, (_, k) => rawStart + Math.min(k, raw.length));
  return offsets;
}
