// "The SQL a call sends": one adapter that turns the many ESTree shapes SQL arrives in (string
// literals, template literals, tagged templates, `+` concatenations, `{ text }` configs, a
// constant passed by name) into one model, `SqlText`, that rules reason about. A position in
// the SQL maps back to the source, so a report can sit on a function name inside the literal.
import type { DetectContext } from '../detect-context.js';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { findVariable } from '@eslint-community/eslint-utils';
import { perFileMap } from '../source/last-file-cache.js';
import {
  parseSql,
  SQL_CONFIG_PROPERTIES,
  SQL_METHODS,
  SQL_TAG_FACTORY_MODULES,
  SQL_TAGS,
  type ParsedSql,
} from '../../src/knowledge/sql.js';

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
    if (
      current.type === 'TSAsExpression' ||
      current.type === 'TSNonNullExpression' ||
      current.type === 'TSSatisfiesExpression' ||
      current.type === 'TSTypeAssertion'
    ) {
      current = current.expression;
    } else if (current.type === 'TaggedTemplateExpression') {
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
  const variable = findVariable(sourceCode.getScope(id) as never, id as never) as unknown as {
    defs: Array<{ type: string; node: Node; parent: Node | null }>;
    references: Array<{ isWrite(): boolean }>;
  } | null;
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

// ---------------------------------------------------------------------------------------------
// Where SQL is sent

/** A SQL text and the call that sends it. */
export interface SqlUse {
  sql: SqlText;
  /** The call or tagged template that sends it (`undefined` for SQL-looking text not sent by a known call). */
  call: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression | undefined;
  /** The client the SQL goes to (`pool` in `pool.query(…)`, `sql` in `sql`…``, `prisma` in `prisma.$queryRaw`…``). */
  client: TSESTree.Expression | undefined;
  /** The method or tag name (`query`, `raw`, `$queryRaw`, `sql`). */
  method: string | undefined;
}

/** A SqlUse whose text reads as SQL, with its tokens and statements. */
export interface ParsedSqlUse extends SqlUse {
  parsed: ParsedSql;
}

function propertyName(node: TSESTree.MemberExpression): string | undefined {
  if (!node.computed && node.property.type === 'Identifier') return node.property.name;
  if (node.computed && node.property.type === 'Literal' && typeof node.property.value === 'string') return node.property.value;
  return undefined;
}

/** The SQL argument of a `{ text }` / `{ sql }` query config object. */
function configSql(node: Node): Node | undefined {
  if (node.type !== 'ObjectExpression') return undefined;
  for (const property of node.properties) {
    if (property.type !== 'Property' || property.computed) continue;
    const key =
      property.key.type === 'Identifier' ? property.key.name : property.key.type === 'Literal' ? String(property.key.value) : undefined;
    if (key !== undefined && SQL_CONFIG_PROPERTIES.includes(key)) return property.value;
  }
  return undefined;
}

/** Whether `tag` is a postgres.js instance: bound to `postgres(…)` from the `postgres` module. */
function isSqlTagFactoryResult(tag: TSESTree.Identifier, sourceCode: SourceCode): boolean {
  const init = constantInitializer(tag, sourceCode);
  if (init?.type !== 'CallExpression' || init.callee.type !== 'Identifier') return false;
  const factory = findVariable(sourceCode.getScope(init.callee) as never, init.callee as never) as unknown as {
    defs: Array<{ type: string; node: Node; parent: Node | null }>;
  } | null;
  const def = factory?.defs[0];
  if (!def) return false;
  if (def.type === 'ImportBinding')
    return def.parent?.type === 'ImportDeclaration' && SQL_TAG_FACTORY_MODULES.includes(String(def.parent.source.value));
  if (def.type === 'Variable' && def.node.type === 'VariableDeclarator') {
    const required = def.node.init;
    return (
      required?.type === 'CallExpression' &&
      required.callee.type === 'Identifier' &&
      required.callee.name === 'require' &&
      required.arguments[0]?.type === 'Literal' &&
      SQL_TAG_FACTORY_MODULES.includes(String(required.arguments[0].value))
    );
  }
  return false;
}

/** The SQL a tagged template sends (`sql`…``, `Prisma.sql`…``, `prisma.$queryRaw`…``, a postgres.js instance). */
export function sqlOfTaggedTemplate(node: TSESTree.TaggedTemplateExpression, sourceCode: SourceCode): SqlUse | undefined {
  const tag = node.tag;
  let name: string | undefined;
  let client: TSESTree.Expression | undefined;
  if (tag.type === 'Identifier') {
    name = tag.name;
    client = tag;
    if (!SQL_TAGS.has(name) && !isSqlTagFactoryResult(tag, sourceCode)) return undefined;
  } else if (tag.type === 'MemberExpression') {
    name = propertyName(tag);
    // `sql.unsafe`…`` is not a tag; `Prisma.sql`, `prisma.$queryRaw`, `knex.raw` are.
    if (name === undefined || !SQL_TAGS.has(name)) return undefined;
    client = tag.object;
  } else {
    return undefined;
  }
  const sql = sqlTextOf(node, sourceCode);
  return sql && { sql, call: node, client, method: name };
}

/**
 * The SQL a call sends: `x.query(sqlOrConfig, …)`, `knex.raw(…)`, `prisma.$queryRawUnsafe(…)`,
 * `sql.unsafe(…)`, `db.execute(sql`…`)`, … — the first argument, as text, a template, a tagged
 * template, a `{ text }` config or a constant by name.
 */
export function sqlOfCall(node: TSESTree.CallExpression, sourceCode: SourceCode): SqlUse | undefined {
  const callee = node.callee;
  if (callee.type !== 'MemberExpression') return undefined;
  const method = propertyName(callee);
  if (method === undefined || !SQL_METHODS.has(method)) return undefined;
  let argument: Node | undefined = node.arguments[0];
  if (!argument || argument.type === 'SpreadElement') return undefined;
  const config = configSql(argument);
  if (config) argument = config;
  const sql = sqlTextOf(argument, sourceCode);
  return sql && { sql, call: node, client: callee.object, method };
}

const NON_SQL_PARENTS = new Set([
  'ImportDeclaration',
  'ExportAllDeclaration',
  'ExportNamedDeclaration',
  'ImportExpression',
  'TSExternalModuleReference',
  'TSLiteralType',
  'Property',
  'JSXAttribute',
]);

export interface SqlUsesOptions {
  /** Cheap pre-filter on the SQL text (before tokenizing), e.g. `/advisory/i`. */
  mentions?: RegExp;
}

/**
 * A listener that finds every SQL text in the file — sent by a known call or tag, or any
 * string/template that reads as SQL (a statement keyword first) — and calls `onUse` once per
 * SQL text at the end of the file, preferring the use that names a call and client. Text that
 * does not lex or does not start like a statement is skipped silently.
 */
export function sqlUsesListener(
  context: DetectContext,
  onUse: (use: ParsedSqlUse) => void,
  options: SqlUsesOptions = {},
): TSESLint.RuleListener {
  const sourceCode = context.sourceCode;
  const uses = new Map<Node, ParsedSqlUse>();
  const keep = (use: SqlUse | undefined): void => {
    if (!use) return;
    const seen = uses.get(use.sql.node);
    if (seen && (seen.call || !use.call)) return;
    if (options.mentions && !options.mentions.test(use.sql.text)) return;
    // Unlexable or non-SQL text is skipped silently.
    const parsed = parseSql(use.sql.text);
    if (parsed) uses.set(use.sql.node, { ...use, parsed });
  };
  const bare = (node: TSESTree.Literal | TSESTree.TemplateLiteral | TSESTree.BinaryExpression): void => {
    if (node.parent?.type === 'TaggedTemplateExpression') return;
    // A piece of a concatenation is read as part of the whole.
    if (node.parent?.type === 'BinaryExpression' && node.parent.operator === '+') return;
    if (node.parent && NON_SQL_PARENTS.has(node.parent.type) && !(node.parent.type === 'Property' && node.parent.value === node)) return;
    // Cheap checks on the literal's own source before building anything.
    if (options.mentions && !options.mentions.test(sourceCode.getText(node))) return;
    if (node.type === 'Literal' && !/^\s*[(a-z/-]/i.test(node.value as string)) return;
    const sql = sqlTextOf(node, sourceCode);
    if (sql) keep({ sql, call: undefined, client: undefined, method: undefined });
  };
  return {
    CallExpression(node) {
      keep(sqlOfCall(node, sourceCode));
    },
    TaggedTemplateExpression(node) {
      keep(sqlOfTaggedTemplate(node, sourceCode));
    },
    Literal(node) {
      if (typeof node.value === 'string') bare(node as TSESTree.Literal);
    },
    TemplateLiteral: bare,
    BinaryExpression(node) {
      if (node.operator === '+') bare(node);
    },
    'Program:exit'() {
      for (const use of uses.values()) onUse(use);
    },
  };
}

/**
 * The SQL a call or tagged template sends (`sqlOfCall` / `sqlOfTaggedTemplate`), asked with the
 * keyword the caller needs (`/update/i`): `'absent'` when the SQL is written in place — a string
 * literal or template in the call itself, without escapes — and its source lacks the keyword.
 * That answer needs no SQL text built, and most calls in a file are answered that way.
 */
export function sqlSentBy(
  node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression,
  sourceCode: SourceCode,
  mentions: RegExp,
): SqlUse | 'absent' | undefined {
  if (node.type === 'CallExpression') {
    const callee = node.callee;
    if (callee.type !== 'MemberExpression') return undefined;
    const method = propertyName(callee);
    if (method === undefined || !SQL_METHODS.has(method)) return undefined;
    const first = node.arguments[0];
    const argument = first && first.type !== 'SpreadElement' ? (configSql(first) ?? first) : undefined;
    if (argument && lacksInPlace(argument, sourceCode, mentions)) return 'absent';
    return sqlOfCall(node, sourceCode);
  }
  const use = sqlOfTaggedTemplate(node, sourceCode);
  return use && !mentions.test(use.sql.text) ? 'absent' : use;
}

/** Whether `node` is SQL written in place whose source text lacks `mentions` (the cooked text then lacks it too). */
function lacksInPlace(node: Node, sourceCode: SourceCode, mentions: RegExp): boolean {
  const inPlace =
    (node.type === 'Literal' && typeof node.value === 'string') ||
    (node.type === 'TemplateLiteral' && node.quasis.every((q) => q.value.cooked != null));
  if (!inPlace) return false;
  const source = sourceCode.text.slice(node.range[0], node.range[1]);
  return !source.includes('\\') && !mentions.test(source);
}
