// A transaction that first locks a row (`SELECT … FROM "Asset" WHERE id = $1 FOR UPDATE`, sent in
// place or by a project helper such as `lockAssetForQuantityUpdate(tx, assetId)`) holds every other
// transaction that locks the same row until it commits: the rows it then reads by that row's key
// (`tx.assetLocation.findFirst({ where: { assetId } })`) and writes back are the locking writer's
// alone — the aggregate-root lock. A lock on another key, taken after the read, or outside the
// transaction holding the read is no such guard. A helper this file cannot read (imported from a
// module not linted with it) is taken at its name when that name says it locks a row
// (`lockAssetForUpdate(tx, assetId)`, `lockAccount(tx, id)`) and it is handed the transaction;
// a helper that can be read is judged by the SQL it sends, whatever its name.
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../../analysis/detect-context.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { isFunctionNode } from '../../analysis/sql/enclosing-function.js';
import { sqlSentBy } from '../../analysis/sql/sql-text.js';
import { projectFunctionOf } from '../../analysis/modules/index.js';
import { hasRowLockClause, parseSql } from '../../src/knowledge/sql.js';
import { ROW_LOCK_HELPER_NAME } from '../../src/knowledge/orm-reads-writes.js';
import { transactionCallbackOf } from './transaction-locks.js';

type Node = TSESTree.Node;

/** The keyword every lock clause starts with: SQL written in place without it is answered without building the text. */
const LOCK_KEYWORD = /\bfor\b/i;

/** Whether SQL text holds a SELECT with a lock clause (`hasRowLockClause`: `FOR UPDATE`, `FOR NO KEY UPDATE`, `SKIP LOCKED`). */
const locksRowsIn = (text: string): boolean =>
  parseSql(text)?.statements.some((statement) => statement.kind === 'select' && hasRowLockClause(statement.tokens)) ?? false;

/** `lockAssetForUpdate(tx, …)`, `this.locks.lockRow(trx, …)`: a helper named for a row lock, handed the transaction `handle`. */
function namedLockGiven(call: TSESTree.CallExpression, handle: string | undefined): boolean {
  const callee = call.callee.type === 'MemberExpression' ? call.callee.property : call.callee;
  return (
    callee.type === 'Identifier' &&
    ROW_LOCK_HELPER_NAME.test(callee.name) &&
    handle !== undefined &&
    call.arguments.some((a) => a.type === 'Identifier' && a.name === handle)
  );
}

/** Whether a call or tagged template sends SQL that locks rows, here or in the project function it calls. */
function locksRows(
  node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression,
  context: DetectContext,
  handle: string | undefined,
): boolean {
  const here = sqlSentBy(node, context.sourceCode, LOCK_KEYWORD);
  if (here === 'absent') return false;
  if (here) return locksRowsIn(here.sql.text);
  if (node.type !== 'CallExpression') return false;
  const target = projectFunctionOf(context, node.callee);
  if (!target) return namedLockGiven(node, handle);
  const { sourceCode } = target.module;
  for (const inner of descendants(target.fn.body, sourceCode.visitorKeys)) {
    if (inner.type !== 'CallExpression' && inner.type !== 'TaggedTemplateExpression') continue;
    const use = sqlSentBy(inner, sourceCode, LOCK_KEYWORD);
    if (use && use !== 'absent' && locksRowsIn(use.sql.text)) return true;
  }
  return false;
}

/** The plain names a node's arguments mention (`assetId`, `input.assetId` → `assetId`, `input`). */
function argumentNames(args: readonly Node[], keys: Parameters<typeof descendants>[1]): Set<string> {
  const names = new Set<string>();
  for (const arg of args)
    for (const n of [arg, ...descendants(arg, keys)]) if (n.type === 'Identifier' && n.name !== 'tx' && n.name !== 'trx') names.add(n.name);
  return names;
}

/** Whether `read` runs in a transaction callback that, before it, locked a row by a value the read filters on. */
export function readUnderRowLock(read: Node, context: DetectContext): boolean {
  if (read.type !== 'CallExpression') return false;
  const callback = transactionCallbackOf(read);
  const body = callback?.body;
  if (!body) return false;
  const param = callback.params[0];
  const handle = param?.type === 'Identifier' ? param.name : undefined;
  const keys = context.sourceCode.visitorKeys;
  const filtered = argumentNames(read.arguments, keys);
  if (filtered.size === 0) return false;
  for (const node of descendants(body, keys, isFunctionNode)) {
    if (node.range[0] >= read.range[0]) break;
    if (node.type !== 'CallExpression' && node.type !== 'TaggedTemplateExpression') continue;
    const given = argumentNames(node.type === 'CallExpression' ? node.arguments : node.quasi.expressions, keys);
    if ([...given].some((name) => filtered.has(name)) && locksRows(node, context, handle)) return true;
  }
  return false;
}
