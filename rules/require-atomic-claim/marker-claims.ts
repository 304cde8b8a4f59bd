// The find-then-create claim: a run, lock or idempotency record looked up by what the work is
// (`jobRuns.findFirst({ where: { jobId, period } })`) and created when absent, so that the work
// it gates happens once. Two replicas (or two deliveries of one webhook) both find nothing, both
// create the marker and both do the work; a transaction does not help under READ COMMITTED. Only
// the database can decide: a unique key on what the work is, with an insert that does nothing on
// a conflict and tells whether it inserted.
//
// What makes it a claim and not an ordinary find-or-create (a user's profile made on first use)
// is the table: one that records runs, executions, locks, idempotency keys or processed events.
// Not a claim when the database already decides — a unique lookup (`findUnique`, `findByPk`,
// `findById`), an upsert, a create that ignores conflicts (`skipDuplicates`, `onConflict`,
// `orIgnore`, `ON CONFLICT`), a unique violation caught around the create — or when the lookup
// takes a row lock or runs under a guard or lock.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { isOutermostCall, methodChain } from '../../analysis/sql/method-chain.js';
import { outermostCallOf } from '../../analysis/ast/method-chain.js';
import { constantInitializer, sqlSentBy } from '../../analysis/sql/sql-text.js';
import {
  CRITERIA_FIRST_METHODS,
  hasRowLockClause,
  parseSql,
  ROW_LOCK_METHODS,
  ROW_LOCK_OPTION_KEYS,
  tableNames,
  whereClause,
} from '../../src/knowledge/sql.js';
import { WORK_MARKER_TABLE_WORDS } from '../../src/knowledge/work-markers.js';
import {
  CONFLICT_SETTLING_METHODS,
  CONFLICT_SETTLING_OPTIONS,
  CONFLICT_SETTLING_SQL,
  UNIQUE_VIOLATION_TEXT,
} from '../../src/knowledge/item-claims.js';
import { filterContexts, type DatabaseCall, type PendingRead } from './claim-shapes.js';
import { chainTable } from './tables.js';

type SourceCode = Readonly<TSESLint.SourceCode>;
type Node = TSESTree.Node;

const MARKER_WORDS: ReadonlySet<string> = new Set(WORK_MARKER_TABLE_WORDS);

/**
 * The file's text test: a lookup of a table named with a marker word — the word (any case, a whole
 * piece of the name) a few characters before `findFirst(` / `findOne(` / `first(` in one statement
 * (`prisma.jobRun.findFirst(`, `this.runRepository.findOne(`, `knex('job_runs').where(…).first(`),
 * or after `FROM` in SQL — and a create. Most files that say `run` or `lock` look nothing up by it.
 */
/** A marker word as a whole piece of a name (`run_id`, `jobRuns`, `JOB_RUNS`; not `truncate`, `block`, `running`), longest first. */
const MARKER_SEGMENT = `(?:${[...WORK_MARKER_TABLE_WORDS]
  .sort((a, b) => b.length - a.length)
  .flatMap((word) => [`(?<![A-Za-z])${word}`, `${word[0]!.toUpperCase()}${word.slice(1)}`, `(?<![A-Z])${word.toUpperCase()}`])
  .join('|')})(?![a-z])`;
const MARKER_WORD = new RegExp(MARKER_SEGMENT);
const LOOKUP_CALL = /\b(?:findFirst|findOne|findOneBy|first)\s*\(/g;
/** `from` / `FROM` and the spaces and quote after it: the name that follows is asked for a marker word (`markerAfterFrom`). */
const FROM_KEYWORD = /\b(?:from|FROM)\s+["'\x60]?/g;
/** A (qualified) name, from where it is asked. */
const NAME_AT = /[\w.]*/y;

/**
 * Whether a marker word stands in the name after a `from` / `FROM` (`FROM job_runs`, `from "jobRuns"`).
 * The name is cut out and asked alone: the characters around it (a space or quote before, none
 * of `[\w.]` after) are not letters, as the word's edges ask. Asked in one expression with a lazy
 * name before the word, every `from` of the file (each import) tried every word at every
 * character of the name; this asks the words once per name.
 */
function markerAfterFrom(text: string): boolean {
  FROM_KEYWORD.lastIndex = 0;
  for (let match = FROM_KEYWORD.exec(text); match; match = FROM_KEYWORD.exec(text)) {
    const start = FROM_KEYWORD.lastIndex;
    NAME_AT.lastIndex = start;
    NAME_AT.test(text);
    if (NAME_AT.lastIndex > start && MARKER_WORD.test(text.slice(start, NAME_AT.lastIndex))) return true;
  }
  return false;
}

/** Whether a marker word stands in the 120 characters of one statement before a lookup call (the calls are rarer than the words). */
function markerBeforeLookup(text: string): boolean {
  LOOKUP_CALL.lastIndex = 0;
  for (let match = LOOKUP_CALL.exec(text); match; match = LOOKUP_CALL.exec(text)) {
    const window = text.slice(Math.max(0, match.index - 120), match.index);
    if (MARKER_WORD.test(window.slice(window.lastIndexOf(';') + 1))) return true;
  }
  return false;
}

/** A lookup call or a SQL `select`, asked first: one pass, and most files hold neither. */
const LOOKUP_WORDS = /find(?:First|One)|first\(|SELECT|select/;

/** Whether `text` may look up a marker-named table (see above). */
export function mayLookUpMarkerTable(text: string): boolean {
  return LOOKUP_WORDS.test(text) && (markerBeforeLookup(text) || markerAfterFrom(text));
}

export const CREATE_TEXT = /create|insert|INSERT/;

/** Reads of one row by a filter that need not be unique. */
const SINGLE_ROW_READS: ReadonlySet<string> = new Set(['findFirst', 'findOne', 'findOneBy', 'first']);
const CONFLICT_LINKS: ReadonlySet<string> = new Set(CONFLICT_SETTLING_METHODS);
const CONFLICT_OPTIONS: ReadonlySet<string> = new Set(CONFLICT_SETTLING_OPTIONS);

/** Whether a table or model name is one of run, lock or idempotency records (`scheduled_job_runs`, `JobRunRepository`). */
export function isMarkerTable(name: string): boolean {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .some((word) => MARKER_WORDS.has(word));
}

function hasKey(node: Node | undefined, keys: ReadonlySet<string> | RegExp): boolean {
  if (node?.type !== 'ObjectExpression') return false;
  return node.properties.some((p) => {
    if (p.type !== 'Property' || p.computed) return false;
    const key = p.key.type === 'Identifier' ? p.key.name : p.key.type === 'Literal' ? String(p.key.value) : '';
    return keys instanceof RegExp ? keys.test(key) : keys.has(key);
  });
}

/** A lookup of one row of a run / lock / idempotency table by a filter, taking no row lock; `undefined` for anything else. */
export function markerReadOf(node: DatabaseCall, sourceCode: SourceCode): PendingRead | undefined {
  const use = sqlSentBy(node, sourceCode, /select/i);
  if (use === 'absent') return undefined;
  if (use) {
    const statement = parseSql(use.sql.text)?.statements.find((s) => s.kind === 'select');
    if (!statement || hasRowLockClause(statement.tokens) || whereClause(statement.tokens).length === 0) return undefined;
    const table = tableNames(statement.tokens)[0];
    const first = statement.tokens[0];
    if (table === undefined || !isMarkerTable(table) || !first) return undefined;
    return {
      node,
      kind: 'sql',
      reportNode: use.sql.node,
      loc: use.sql.locOf(first.start, first.end),
      table,
      named: table,
      statusColumn: undefined,
    };
  }
  if (node.type !== 'CallExpression' || !isOutermostCall(node)) return undefined;
  const chain = methodChain(node);
  const readLink = chain.find((l) => l.name !== undefined && SINGLE_ROW_READS.has(l.name));
  if (!readLink || chain.some((l) => l.name !== undefined && ROW_LOCK_METHODS.has(l.name))) return undefined;
  const options = (a: Node): Node | undefined => (a.type === 'Identifier' ? constantInitializer(a, sourceCode) : a);
  if (chain.some((l) => l.call.arguments.some((a) => hasKey(options(a), ROW_LOCK_OPTION_KEYS)))) return undefined;
  if (readLink.call.arguments.some((a) => a.type === 'ArrowFunctionExpression' || a.type === 'FunctionExpression')) return undefined;
  if (filterContexts(chain, CRITERIA_FIRST_METHODS).length === 0) return undefined;
  const table = chainTable(chain);
  if (table === undefined || !isMarkerTable(table)) return undefined;
  return { node, kind: 'builder', reportNode: readLink.nameNode, loc: undefined, table, named: table, statusColumn: undefined };
}

/**
 * Whether the create lets the database decide a duplicate: an upsert, an insert ignoring conflicts
 * (a conflict link anywhere in its chain, after the values too: `insert(t).values(v).onConflictDoNothing()`),
 * a unique violation caught.
 */
export function decidedByDatabase(create: DatabaseCall, sourceCode: SourceCode): boolean {
  if (create.type === 'CallExpression') {
    const chain = methodChain(outermostCallOf(create));
    if (chain.some((l) => l.name !== undefined && CONFLICT_LINKS.has(l.name))) return true;
    if (chain.some((l) => l.call.arguments.some((a) => hasKey(a, CONFLICT_OPTIONS)))) return true;
  }
  const use = sqlSentBy(create, sourceCode, /insert/i);
  if (use && use !== 'absent' && CONFLICT_SETTLING_SQL.test(use.sql.text)) return true;
  for (let node: Node | undefined = create.parent; node; node = node.parent) {
    if (node.type === 'TryStatement' && node.handler && UNIQUE_VIOLATION_TEXT.test(sourceCode.getText(node.handler))) return true;
    // `.catch((e) => { if (e.code === 'P2002') … })` on the create's promise.
    if (node.type === 'CallExpression' && node.callee.type === 'MemberExpression') {
      const name = node.callee.property.type === 'Identifier' ? node.callee.property.name : '';
      if (name === 'catch' && UNIQUE_VIOLATION_TEXT.test(sourceCode.getText(node.arguments[0] ?? node))) return true;
    }
  }
  return false;
}

/** Whether the transaction around `node` runs at SERIALIZABLE isolation (its option object says so). */
export function serializable(node: Node, sourceCode: SourceCode): boolean {
  for (let up: Node | undefined = node.parent; up; up = up.parent) {
    if (up.type !== 'CallExpression') continue;
    if (up.arguments.some((a) => a.type === 'ObjectExpression' && /[Ss]erializable|SERIALIZABLE/.test(sourceCode.getText(a)))) return true;
  }
  return false;
}
