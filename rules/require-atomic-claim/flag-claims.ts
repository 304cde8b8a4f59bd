// A row's "running" flag checked in JavaScript, then set in a second statement: `const account =
// await prisma.account.findUnique({ where: { id } }); if (account.syncRunning) return; await
// prisma.account.update({ where: { id }, data: { syncRunning: true } })` — or the set made by a
// project helper (`await setSyncRunning(id, true)`, in this file or another module). The flag is
// there to stop a second run, but two replicas both read it unset, both set it and both run. The
// claim is atomic only as one conditional statement whose row count is used (`updateMany({ where:
// { id, syncRunning: false } … })`), or under a row lock, a transaction lock or a guard.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { IN_PROGRESS_VALUE, isRunningFlag } from '../../src/knowledge/running-flags.js';
import { isStatusLikeColumn } from '../../src/knowledge/sql.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { enclosingFunction, isFunctionNode } from '../../analysis/sql/enclosing-function.js';
import { sqlOfCall } from '../../analysis/sql/sql-text.js';
import { projectFunctionOf, type ProjectFunction } from '../../analysis/modules/index.js';
import type { DetectContext } from '../../analysis/detect-context.js';
import { exits } from '../no-read-then-write/control-flow.js';
import { readSiteOf } from '../no-read-then-write/read-site.js';
import { rowUpdateOf, type ClaimVocabulary, type DatabaseCall } from './claim-shapes.js';
import { fieldOfRow, stateSetOnce, transitionWithWork } from './state-set-once.js';
import { LOG_METHODS } from '../../src/knowledge/work-effects.js';
import { LOADER_CALL_NAME, LOADER_VERBS } from '../../src/knowledge/orm-reads-writes.js';
import { loadsOneRow } from './loader-reads.js';

type Node = TSESTree.Node;
type SourceCode = Readonly<TSESLint.SourceCode>;

export interface FlagClaim {
  /** The read of the row. */
  read: TSESTree.CallExpression;
  /** The flag checked and set. */
  column: string;
  /** The statement that sets it: the write, or the helper call that makes it. */
  set: TSESTree.CallExpression;
  /** Reported on the read (a state compared with the value then set), not on the set. */
  atRead?: true;
}

/** Reads of one row by its key, which the rule's pending-read candidates leave out. */
export const UNIQUE_ROW_READS: ReadonlySet<string> = new Set(['findUnique', 'findUniqueOrThrow', 'findById', 'findByPk']);
/** Single-row reads whose result is the row (not a list). */
const ONE_ROW_READS: ReadonlySet<string> = new Set(
  'findUnique findUniqueOrThrow findFirst findFirstOrThrow findOne findOneBy findOneOrFail findOneByOrFail findById findByPk first'.split(
    ' ',
  ),
);
/** Text of a function that serialises what it does: a transaction lock, a row lock, SERIALIZABLE. */
const SERIALISED = /advisory_xact_lock|\bfor\s+(?:no\s+key\s+)?update\b|serializable|pessimistic_write|forUpdate\s*\(/i;

/** The name the awaited read is kept in (`const account = await …`), and the row expression root for SQL (`const { rows } = …` → `rows`). */
function keptIn(read: TSESTree.CallExpression): string | undefined {
  const awaited = read.parent?.type === 'AwaitExpression' ? read.parent : undefined;
  const declarator = awaited?.parent;
  if (declarator?.type !== 'VariableDeclarator' || declarator.init !== awaited) return undefined;
  if (declarator.id.type === 'Identifier') return declarator.id.name;
  if (declarator.id.type !== 'ObjectPattern') return undefined;
  const rows = declarator.id.properties.find((p) => p.type === 'Property' && propertyKeyName(p) === 'rows');
  return rows?.type === 'Property' && rows.value.type === 'Identifier' ? rows.value.name : undefined;
}

/**
 * The flag a leaving check tests: `if (row.running) return`, `if (row.syncRunning === true) throw …`,
 * `if (row.status === 'processing') return` (the row's state compared with a run under way). A
 * check of another state (`if (row.status !== 'draft') throw`) validates a transition, not a run.
 */
function checkedFlag(test: Node, row: string): string | undefined {
  const value = unwrapExpression(test);
  if (value.type === 'LogicalExpression') return checkedFlag(value.left, row) ?? checkedFlag(value.right, row);
  if (value.type === 'BinaryExpression' && (value.operator === '===' || value.operator === '==')) {
    const field = fieldOfRow(value.left, row) ?? fieldOfRow(value.right, row);
    if (field === undefined) return undefined;
    if (isRunningFlag(field)) return field;
    return isStatusLikeColumn(field) && (marksStarted(value.left) || marksStarted(value.right)) ? field : undefined;
  }
  const field = fieldOfRow(value, row);
  return field !== undefined && isRunningFlag(field) ? field : undefined;
}

/** Whether a value written marks the run started: `true`, `1`, an in-progress word (`'processing'`, `Status.RUNNING`). */
function marksStarted(node: Node): boolean {
  const value = unwrapExpression(node);
  if (value.type === 'Literal') return value.value === true || value.value === 1 || IN_PROGRESS_VALUE.test(String(value.value));
  if (value.type === 'MemberExpression') return IN_PROGRESS_VALUE.test(memberPropertyName(value) ?? '');
  return false;
}

/** The value a call's arguments write to `column` (a property at any depth), when they write it. */
function writtenValue(call: TSESTree.CallExpression, column: string, sourceCode: SourceCode): Node | 'sql' | undefined {
  const sql = sqlOfCall(call, sourceCode)?.sql.text;
  if (sql !== undefined) {
    const set = new RegExp(`\\bset\\b[\\s\\S]*?["\`]?\\b${column}\\b["\`]?\\s*=\\s*(true|1|'[^']*')`, 'i').exec(sql);
    const value = set?.[1]?.replace(/'/g, '');
    return value !== undefined && (value === 'true' || value === '1' || IN_PROGRESS_VALUE.test(value)) ? 'sql' : undefined;
  }
  for (const argument of call.arguments) {
    for (const node of descendants(argument, sourceCode.visitorKeys, isFunctionNode)) {
      if (node.type === 'Property' && propertyKeyName(node) === column && node.parent?.type === 'ObjectExpression') return node.value;
    }
  }
  return undefined;
}

/** Whether the write of `column` by `call` is a conditional transition whose count is used (a claim made atomically). */
function claimsAtomically(call: DatabaseCall, column: string, sourceCode: SourceCode): boolean {
  const vocabulary: ClaimVocabulary = { statusColumns: [column], queueTables: [] };
  const update = rowUpdateOf(call, sourceCode, vocabulary);
  return update !== undefined && update.conditional && update.countChecked;
}

/** Whether a project helper sets `column`: a write whose arguments name it, not a checked conditional one. */
function helperSets(target: ProjectFunction, column: string): boolean {
  const sourceCode = target.module.sourceCode as unknown as SourceCode;
  if (!target.fn.body) return false;
  for (const node of descendants(target.fn.body, sourceCode.visitorKeys, isFunctionNode)) {
    if (node.type !== 'CallExpression') continue;
    if (writtenValue(node, column, sourceCode) !== undefined) return !claimsAtomically(node, column, sourceCode);
  }
  return false;
}

/** The statement after the check that sets the flag: a write of it, `row.flag = true` then a save, or a project helper that writes it. */
function setAfter(
  statements: readonly TSESTree.Statement[],
  column: string,
  row: string,
  context: DetectContext,
): TSESTree.CallExpression | undefined {
  const sourceCode = context.sourceCode as unknown as SourceCode;
  let assigned = false;
  for (const statement of statements) {
    for (const node of descendants(statement, sourceCode.visitorKeys, isFunctionNode)) {
      if (node.type === 'AssignmentExpression' && fieldOfRow(node.left, row) === column && marksStarted(node.right)) assigned = true;
      if (node.type !== 'CallExpression') continue;
      const method = memberPropertyName(unwrapExpression(node.callee));
      if (assigned && method === 'save') return node;
      const written = writtenValue(node, column, sourceCode);
      if (written !== undefined) {
        if (written !== 'sql' && !marksStarted(written)) return undefined;
        return claimsAtomically(node, column, sourceCode) ? undefined : node;
      }
      // A project helper that writes the flag (`setSyncRunning(id, true)`, `this.jobs.markRunning(id)`).
      if (readSiteOf(node) || sqlOfCall(node, sourceCode)) continue;
      if (node.arguments.some((a) => a.type === 'Literal' && a.value === false)) continue;
      const target = projectFunctionOf(context, node.callee);
      if (target && helperSets(target, column)) return node;
    }
  }
  return undefined;
}

/** Work besides the state's write: an awaited call that is no read (a row, a SQL `SELECT`, a loader by name) and no log line. */
function isWork(call: TSESTree.CallExpression, sourceCode: SourceCode): boolean {
  if (readSiteOf(call)) return false;
  const sql = sqlOfCall(call, sourceCode)?.sql.text;
  if (sql !== undefined) return !/^\s*select\b/i.test(sql);
  const callee = unwrapExpression(call.callee);
  // (the global `fetch(url, { method: 'POST' })` is a request sent, not a loader)
  const name = callee.type === 'MemberExpression' ? memberPropertyName(callee) : callee.type === 'Identifier' ? callee.name : undefined;
  if (name === undefined || (callee.type === 'Identifier' && LOADER_VERBS.includes(name))) return true;
  return !(LOG_METHODS.includes(name) || LOADER_CALL_NAME.test(name));
}

/** What a transition's path is read with: its work (`isWork`), and the calls that write a row's state (a row update the rule knows). */
const transitionCalls = (sourceCode: SourceCode): Parameters<typeof transitionWithWork>[4] => ({
  isWork: (call) => isWork(call, sourceCode),
  writes: (call, column) => rowUpdateOf(call, sourceCode, { statusColumns: [column], queueTables: [] }) !== undefined,
});

/** A row read by its key by an ORM call (not a queue's next row picked by a state in its filter, not a loader). */
function byKey(read: TSESTree.CallExpression, method: string | undefined, sourceCode: SourceCode): boolean {
  if (!ONE_ROW_READS.has(method ?? '')) return false;
  return !read.arguments.some((argument) =>
    [argument, ...descendants(argument, sourceCode.visitorKeys, isFunctionNode)].some(
      (node) => node.type === 'Property' && isStatusLikeColumn(propertyKeyName(node) ?? ''),
    ),
  );
}

/** The flag claim `read` starts, when its row's flag is checked and then set in a second statement nothing serialises. */
export function flagClaimOf(read: DatabaseCall, context: DetectContext): FlagClaim | undefined {
  if (read.type !== 'CallExpression') return undefined;
  const sourceCode = context.sourceCode as unknown as SourceCode;
  const method = memberPropertyName(unwrapExpression(read.callee));
  const sql = sqlOfCall(read, sourceCode)?.sql.text;
  if (
    sql !== undefined
      ? !/^\s*select\b/i.test(sql) || SERIALISED.test(sql)
      : !ONE_ROW_READS.has(method ?? '') && !loadsOneRow(read, context, ONE_ROW_READS)
  )
    return undefined;
  if (sql === undefined && readSiteOf(read)?.locked) return undefined;
  const row = keptIn(read);
  const declaration = read.parent?.parent?.parent;
  const block = declaration?.parent;
  if (!row || declaration?.type !== 'VariableDeclaration' || (block?.type !== 'BlockStatement' && block?.type !== 'Program'))
    return undefined;
  const fn = enclosingFunction(read);
  if (fn && SERIALISED.test(sourceCode.getText(fn))) return undefined;
  const statements = block.body as TSESTree.Statement[];
  for (let i = statements.indexOf(declaration) + 1; i < statements.length; i++) {
    const statement = statements[i] as TSESTree.Statement;
    // The state compared with the very value then written (state-set-once.ts): reported on the read.
    const once = stateSetOnce(statement, statements.slice(i + 1), row, sourceCode);
    // Reported on the read, or, for the row's own `save()` after the assignment, on the save (as a flag set on the row is).
    // …or moved out of the state checked to another, with work on the path (a payment, a dispatch).
    const moved = once ?? transitionWithWork(statement, statements.slice(i + 1), row, sourceCode, transitionCalls(sourceCode));
    // A state moved on one row read by its key, by an ORM write: no-read-then-write's finding (checkedStateChanged), reported once there.
    if (moved && sql === undefined && byKey(read, method, sourceCode) && !sqlOfCall(moved.set, sourceCode) && !isRunningFlag(moved.column))
      return undefined;
    if (moved && !claimsAtomically(moved.set, moved.column, sourceCode))
      return { read, column: moved.column, set: moved.set, ...(moved.saved ? {} : { atRead: true as const }) };
    if (statement.type !== 'IfStatement' || !exits(statement.consequent)) continue;
    const column = checkedFlag(statement.test, row);
    if (column === undefined) continue;
    const set = setAfter(statements.slice(i + 1), column, row, context);
    return set ? { read, column, set } : undefined;
  }
  return undefined;
}
