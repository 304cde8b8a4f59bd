// Raw SQL reads and writes, on top of the shared SQL text extraction (rules/utils/sql-text.ts):
// a SELECT is a read; an UPDATE's `SET col = $n` assignments are the values it writes, each
// mapped back to the JavaScript expression that fills `$n`. `SET col = col - $1` does the
// arithmetic in the database and sends no computed value.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { parseSql, type ParsedSql } from '../../src/knowledge/sql.js';
import { hasWordSequence, identifierName, indexOfTopLevelWord, isPunctuation, type SqlToken } from '../../src/knowledge/sql-tokens.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';

import type { DatabaseCall, ReadSite, WriteSite, WriteValue } from './model.js';
import { sqlSentBy, type SqlUse } from '../../analysis/sql/sql-text.js';
import { perFileMap } from '../../analysis/source/last-file-cache.js';
import { matchesInStrings } from '../../analysis/source/string-text.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** The table name at `tokens[i]` (`accounts`, `public.accounts`, `ONLY accounts`), unqualified. */
function tableAt(tokens: readonly SqlToken[], i: number): string | null {
  let at = i;
  if (identifierName(tokens[at]) === 'only') at++;
  while (isPunctuation(tokens[at + 1], '.') && identifierName(tokens[at + 2]) !== undefined) at += 2;
  return identifierName(tokens[at]) ?? null;
}

const LOCKS: readonly (readonly string[])[] = [
  ['for', 'update'],
  ['for', 'no', 'key', 'update'],
  ['for', 'share'],
];

type FoundSql = { use: SqlUse; parsed: ParsedSql } | null;
/** A call is asked about twice (as a read and as a write): parse its SQL once. */
const parsedIn = perFileMap<DatabaseCall, FoundSql>();

/** The SQL a call sends, parsed — only when its text `mentions` the statement's keyword (tokenizing costs). */
function sqlUseOf(node: DatabaseCall, sourceCode: SourceCode, mentions: RegExp): FoundSql {
  const parsedByNode = parsedIn(sourceCode);
  const cached = parsedByNode.get(node);
  if (cached !== undefined) return cached && mentions.test(cached.use.sql.text) ? cached : null;
  const use = sqlSentBy(node, sourceCode, mentions);
  if (!use || use === 'absent' || !mentions.test(use.sql.text)) return null;
  const parsed = parseSql(use.sql.text);
  const found = parsed ? { use, parsed } : null;
  parsedByNode.set(node, found);
  return found;
}

/** The keyword every SQL read / write this file recognises holds (a file without it sends none). */
export const SQL_READ_KEYWORD = /select/i;
export const SQL_WRITE_KEYWORD = /update/i;
const READ_IN_STRINGS = new RegExp(SQL_READ_KEYWORD.source, 'gi');
const WRITE_IN_STRINGS = new RegExp(SQL_WRITE_KEYWORD.source, 'gi');

/**
 * Whether the file can send a SQL read (`select`) or write (`update`): SQL text is made of string
 * literals and templates alone (analysis/sql/sql-text-model.ts), so the keyword must be in one —
 * `lastUpdated` or `selectedIds` in code say nothing.
 */
export function sqlKeywordsIn(sourceCode: SourceCode): { sqlReads: boolean; sqlWrites: boolean } {
  return { sqlReads: matchesInStrings(sourceCode, READ_IN_STRINGS), sqlWrites: matchesInStrings(sourceCode, WRITE_IN_STRINGS) };
}

/** The read a raw SQL call is (a SELECT), or `null`. */
export function sqlReadSiteOf(node: DatabaseCall, sourceCode: SourceCode): ReadSite | null {
  const found = sqlUseOf(node, sourceCode, SQL_READ_KEYWORD);
  const statement = found?.parsed.statements[0];
  if (!found || !statement || statement.kind !== 'select' || found.parsed.statements.length !== 1) return null;
  const tokens = statement.tokens;
  const from = indexOfTopLevelWord(tokens, 'from');
  return {
    candidates: ['sql'],
    node,
    model: from === -1 ? null : tableAt(tokens, from + 1),
    locked: LOCKS.some((words) => hasWordSequence(tokens, words)),
    mutations: [],
    boundChecks: [],
  };
}

/** The JavaScript expressions bound to `$1…` / `?` when the SQL is a plain string. */
function boundValues(call: DatabaseCall): TSESTree.Node | undefined {
  if (call.type !== 'CallExpression') return undefined;
  const first = call.arguments[0];
  if (first?.type === 'ObjectExpression') {
    for (const property of first.properties) {
      if (property.type === 'Property' && property.key.type === 'Identifier' && property.key.name === 'values') return property.value;
    }
  }
  const second = call.arguments[1];
  return second && second.type !== 'SpreadElement' ? second : undefined;
}

function splitTopLevel(tokens: readonly SqlToken[]): SqlToken[][] {
  const parts: SqlToken[][] = [];
  let current: SqlToken[] = [];
  let depth = 0;
  for (const token of tokens) {
    if (isPunctuation(token, '(')) depth++;
    if (isPunctuation(token, ')')) depth--;
    if (depth === 0 && isPunctuation(token, ',')) {
      parts.push(current);
      current = [];
    } else {
      current.push(token);
    }
  }
  parts.push(current);
  return parts;
}

/** The table a raw SQL UPDATE sends by this call updates (whatever it assigns), or `null`. */
export function sqlUpdatedTable(node: DatabaseCall, sourceCode: SourceCode): string | null {
  const statement = sqlUseOf(node, sourceCode, SQL_WRITE_KEYWORD)?.parsed.statements.find((s) => s.kind === 'update');
  if (!statement) return null;
  const update = statement.tokens.findIndex((t) => identifierName(t) === 'update');
  return update === -1 ? null : tableAt(statement.tokens, update + 1);
}

/** The write a raw SQL call is (an UPDATE assigning parameters), or `null`. */
export function sqlWriteSiteOf(node: DatabaseCall, sourceCode: SourceCode): WriteSite | null {
  const found = sqlUseOf(node, sourceCode, SQL_WRITE_KEYWORD);
  if (!found) return null;
  const { use, parsed } = found;
  const statement = parsed.statements.find((s) => s.kind === 'update');
  if (!statement) return null;
  const tokens = statement.tokens;
  const set = indexOfTopLevelWord(tokens, 'set');
  if (set === -1) return null;
  let end = tokens.length;
  for (const word of ['where', 'from', 'returning']) {
    const at = indexOfTopLevelWord(tokens, word, set + 1);
    if (at !== -1 && at < end) end = at;
  }
  // `?` placeholders (mysql2, knex.raw) are numbered by position in the whole text.
  const questionMarks = parsed.tokens.filter((t) => t.kind === 'operator' && t.value === '?');
  const bound = boundValues(node);
  const boundArray =
    bound && unwrapExpression(bound).type === 'ArrayExpression' ? (unwrapExpression(bound) as TSESTree.ArrayExpression) : undefined;
  const valueOfParameter = (token: SqlToken): TSESTree.Node | undefined => {
    const index = token.kind === 'parameter' ? Number(token.value.slice(1)) - 1 : questionMarks.indexOf(token);
    if (index < 0) return undefined;
    if (use.sql.parameters.length > 0) return use.sql.parameters[index];
    if (boundArray) {
      const element = boundArray.elements[index];
      return element && element.type !== 'SpreadElement' ? element : undefined;
    }
    return bound;
  };

  const values: WriteValue[] = [];
  for (const assignment of splitTopLevel(tokens.slice(set + 1, end))) {
    const equals = assignment.findIndex((t) => t.kind === 'operator' && t.value === '=');
    if (equals < 1) continue;
    const column = assignment[equals - 1] as SqlToken;
    const name = identifierName(column);
    if (name === undefined) continue;
    const expression = assignment.slice(equals + 1);
    // `balance = balance - $1`: the database does the arithmetic on the current value.
    if (expression.some((t) => identifierName(t) === name)) continue;
    for (const token of expression) {
      if (token.kind !== 'parameter' && !(token.kind === 'operator' && token.value === '?')) continue;
      const value = valueOfParameter(token);
      if (!value) continue;
      values.push({ field: name, value, loc: use.sql.locOf(column.start, column.end) });
    }
  }
  if (values.length === 0) return null;
  const conditions: TSESTree.Node[] = [];
  const where = indexOfTopLevelWord(tokens, 'where', set + 1);
  if (where !== -1) {
    for (const token of tokens.slice(where + 1)) {
      if (token.kind !== 'parameter' && !(token.kind === 'operator' && token.value === '?')) continue;
      const value = valueOfParameter(token);
      if (value) conditions.push(value);
    }
  }
  const reportNode: TSESTree.Node = node.type === 'CallExpression' ? node.callee : node.tag;
  const update = tokens.findIndex((t) => identifierName(t) === 'update');
  return {
    candidates: ['sql'],
    model: tableAt(tokens, update + 1),
    node,
    reportNode,
    values,
    entities: [],
    conditions,
    shape: { method: 'UPDATE', nameNode: reportNode, data: undefined, filter: undefined },
  };
}
