// A worker keeping its hold on one row alive: a bare timer whose only shared write is
//   UPDATE jobs SET locked_at = $1 WHERE id = $2           -- [new Date(), this.job.id]
// — every column it sets only says the row is still held (HOLD_COLUMN_WORDS), its filter is
// equalities against values it is handed, one of them the row's key, and a value handed is the
// instance's own (`this.job.id`: an object built to hold that row). Each worker touches the row it
// holds, so every replica running its own timer is the design, not a duplicate. A row named by a
// parameter (`run(task)` … `[task.id]`) may be any replica's: the claim before it decides (lock-heartbeat.ts). A sweep over many
// rows (`WHERE locked_at < now() - interval '5 minutes'`), a column of the row's data set beside
// the lock, or another write in the same work keeps the report.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { HOLD_COLUMN_WORDS, ROW_KEY_WORDS } from '../../src/knowledge/row-keepalive.js';
import { nameWords } from '../../analysis/ast/name-words.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { chainStart } from '../../analysis/ast/chain-root.js';
import { workEffects, type EffectsOptions } from '../../analysis/scheduled-work/external-effects.js';
import { isWriteSql } from '../../analysis/scheduled-work/work-intent.js';
import type { FunctionLike } from '../../analysis/scheduled-work/work-function.js';

const UPDATE_ONE = /^\s*update\s+[\w."]+\s+set\s+([\s\S]+?)\s+where\s+([\s\S]+?)\s*;?\s*$/i;
/** `col = <placeholder>` or `col = now()`: a value handed in, or the clock. */
const ASSIGNMENT = /^\s*"?(\w+)"?\s*=\s*(\$\d+|\?|:\w+|@\w+|now\(\)|current_timestamp)\s*$/i;
/** `col = <placeholder>`: an equality against a value handed in. */
const EQUALITY = /^\s*\(?\s*"?(?:\w+\.)?(\w+)"?\s*=\s*(\$\d+|\?|:\w+|@\w+)\s*\)?\s*$/i;

/** The SQL text of a string or template literal (a template's holes read as a placeholder). */
function sqlText(node: TSESTree.Node): string | undefined {
  if (node.type === 'Literal') return typeof node.value === 'string' ? node.value : undefined;
  return node.type === 'TemplateLiteral' ? node.quasis.map((q) => q.value.cooked ?? q.value.raw).join('$0') : undefined;
}

/** The statement touches only hold columns of one row named by its key. */
function touchesHeldRow(sql: string): boolean {
  const match = UPDATE_ONE.exec(sql);
  if (!match) return false;
  const sets = match[1]!.split(',').map((part) => ASSIGNMENT.exec(part)?.[1]);
  if (!sets.every((column) => column !== undefined && nameWords(column).some((w) => HOLD_COLUMN_WORDS.includes(w)))) return false;
  const filters = match[2]!.split(/\band\b/i).map((part) => EQUALITY.exec(part)?.[1]);
  if (!filters.every((column) => column !== undefined)) return false;
  return filters.some((column) => nameWords(column!).some((w) => ROW_KEY_WORDS.includes(w)));
}

/** The query's values include one of the instance's own (`[new Date(), this.job.id]`). */
function handsOwnValue(sql: TSESTree.Node): boolean {
  const query = sql.parent;
  if (query?.type !== 'CallExpression') return false;
  return query.arguments.some(
    (a) =>
      a.type === 'ArrayExpression' && a.elements.some((e) => e?.type === 'MemberExpression' && chainStart(e).type === 'ThisExpression'),
  );
}

/** The outermost call of the work's statement holding `node` (`helpers.withClient((c) => c.query(SQL))`). */
function outermostCall(node: TSESTree.Node, body: TSESTree.Node): TSESTree.Node | undefined {
  let found: TSESTree.Node | undefined;
  for (let current = node.parent; current && current !== body; current = current.parent)
    if (current.type === 'CallExpression') found = current;
  return found;
}

/** Whether the timer's work `fn` only keeps its hold on one row alive (see the file's head). */
export function keepsHeldRowAlive(sourceCode: SourceCode, fn: FunctionLike, effectsOptions: EffectsOptions): boolean {
  const writes: TSESTree.Node[] = [];
  for (const node of descendants(fn.body, sourceCode.visitorKeys)) {
    const text = (node.type === 'Literal' || node.type === 'TemplateLiteral') && sqlText(node);
    if (text && isWriteSql(text)) writes.push(node);
  }
  if (writes.length !== 1 || !touchesHeldRow(sqlText(writes[0]!)!) || !handsOwnValue(writes[0]!)) return false;
  const call = outermostCall(writes[0]!, fn.body);
  return call !== undefined && !workEffects(fn.body, { ...effectsOptions, skip: new Set([call]) }).sharedWrite;
}
