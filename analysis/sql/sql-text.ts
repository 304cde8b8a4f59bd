// Where SQL is sent: which calls and tagged templates send SQL text (`pool.query(…)`, `sql\`…\``,
// `prisma.$queryRaw`), as one `SqlUse` per sending; the text itself is modelled in sql-text-model.ts.
import type { DetectContext } from '../detect-context.js';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { scopeVariable } from '../ast/scope-variable.js';
import { memberPropertyName, propertyKeyName } from '../ast/property-names.js';
import { compiledCallee } from '../ast/compiled-callee.js';
import {
  parseSql,
  parseSqlExpression,
  SQL_CONFIG_PROPERTIES,
  SQL_METHODS,
  SQL_TAG_FACTORY_MODULES,
  SQL_TAGS,
  type ParsedSql,
} from '../../src/knowledge/sql.js';
import { constantInitializer, sqlTextOf, type SqlText } from './sql-text-model.js';

export { constantInitializer, sqlTextOf, type SqlText } from './sql-text-model.js';

type Node = TSESTree.Node;
type SourceCode = Readonly<TSESLint.SourceCode>;

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

/** The SQL argument of a `{ text }` / `{ sql }` query config object. */
function configSql(node: Node): Node | undefined {
  if (node.type !== 'ObjectExpression') return undefined;
  for (const property of node.properties) {
    if (property.type !== 'Property' || property.computed) continue;
    const key = propertyKeyName(property);
    if (key !== undefined && SQL_CONFIG_PROPERTIES.includes(key)) return property.value;
  }
  return undefined;
}

/** Whether `tag` is a postgres.js instance: bound to `postgres(…)` from the `postgres` module. */
function isSqlTagFactoryResult(tag: TSESTree.Identifier, sourceCode: SourceCode): boolean {
  const init = constantInitializer(tag, sourceCode);
  if (init?.type !== 'CallExpression' || init.callee.type !== 'Identifier') return false;
  const factory = scopeVariable(sourceCode, init.callee);
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
  // Compiled CommonJS tags through the module object: `(0, sql_1.sql)`…``.
  const tag = compiledCallee(node.tag);
  let name: string | undefined;
  let client: TSESTree.Expression | undefined;
  if (tag.type === 'Identifier') {
    name = tag.name;
    client = tag;
    if (!SQL_TAGS.has(name) && !isSqlTagFactoryResult(tag, sourceCode)) return undefined;
  } else if (tag.type === 'MemberExpression') {
    name = memberPropertyName(tag);
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
  const method = memberPropertyName(callee);
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
  /** Also read SQL that starts with a function call (a select-list fragment, `pg_try_advisory_lock($1)`). */
  expressions?: boolean;
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
    const parsed = parseSql(use.sql.text) ?? (options.expressions ? parseSqlExpression(use.sql.text) : undefined);
    if (parsed) uses.set(use.sql.node, { ...use, parsed });
  };
  const read = (node: TSESTree.Literal | TSESTree.TemplateLiteral | TSESTree.BinaryExpression): void => {
    // Cheap checks on the literal's own source before building anything.
    if (options.mentions && !options.mentions.test(sourceCode.getText(node))) return;
    if (node.type === 'Literal' && !/^\s*[(a-z/-]/i.test(node.value as string)) return;
    const sql = sqlTextOf(node, sourceCode);
    if (sql) keep({ sql, call: undefined, client: undefined, method: undefined });
  };
  const bare = (node: TSESTree.Literal | TSESTree.TemplateLiteral | TSESTree.BinaryExpression): void => {
    // A tagged template's text is read with its tag (below).
    if (node.parent?.type === 'TaggedTemplateExpression') return;
    // A piece of a concatenation is read as part of the whole.
    if (node.parent?.type === 'BinaryExpression' && node.parent.operator === '+') return;
    if (node.parent && NON_SQL_PARENTS.has(node.parent.type) && !(node.parent.type === 'Property' && node.parent.value === node)) return;
    read(node);
  };
  return {
    CallExpression(node) {
      keep(sqlOfCall(node, sourceCode));
    },
    TaggedTemplateExpression(node) {
      // A tag the catalogue does not know (a postgres.js connection passed in as \`client\`, a
      // reserved \`conn\`): its text is read as any template is, when it reads as SQL.
      const use = sqlOfTaggedTemplate(node, sourceCode);
      if (use) keep(use);
      else read(node.quasi);
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
    const method = memberPropertyName(callee);
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
