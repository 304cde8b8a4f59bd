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
import { sqlTextOf } from '../../analysis/sql/sql-text-model.js';
import { parseSql, whereClause } from '../../src/knowledge/sql.js';
import { identifierName, indexOfTopLevelWord, isPunctuation, isWord, type SqlToken } from '../../src/knowledge/sql-tokens.js';

/** `$1`, `?`, `:at`, `@at` — a value handed in — or, where the clock may stand, `now()`, `current_timestamp`. */
function handedOrClock(value: readonly SqlToken[], clock: boolean): boolean {
  const [first, second, third] = value;
  if (value.length === 1) return first?.kind === 'parameter' || isOperator(first, '?') || (clock && isWord(first, 'current_timestamp'));
  if (value.length === 2) return (isOperator(first, ':') || isOperator(first, '@')) && second?.kind === 'word';
  return clock && value.length === 3 && isWord(first, 'now') && isPunctuation(second, '(') && isPunctuation(third, ')');
}

const isOperator = (token: SqlToken | undefined, value: string): boolean => token?.kind === 'operator' && token.value === value;

/** `col = <value>` parts of `tokens` split at top-level separators: each part's column, when its value is handed in. */
function handedColumns(tokens: readonly SqlToken[], separates: (token: SqlToken) => boolean, clock: boolean): (string | undefined)[] {
  const parts: SqlToken[][] = [[]];
  let depth = 0;
  for (const token of tokens) {
    if (isPunctuation(token, '(')) depth++;
    if (isPunctuation(token, ')')) depth--;
    if (depth === 0 && separates(token)) parts.push([]);
    else parts.at(-1)!.push(token);
  }
  return parts.map((part) => {
    const equals = part.findIndex((t) => isOperator(t, '='));
    return equals > 0 && handedOrClock(part.slice(equals + 1), clock) ? identifierName(part[equals - 1]) : undefined;
  });
}

/** The statement touches only hold columns of one row named by its key. */
function touchesHeldRow(sql: string): boolean {
  const statements = parseSql(sql)?.statements;
  const tokens = statements?.length === 1 && statements[0]!.kind === 'update' ? statements[0]!.tokens : undefined;
  const set = tokens ? indexOfTopLevelWord(tokens, 'set') : -1;
  const where = tokens ? indexOfTopLevelWord(tokens, 'where') : -1;
  if (!tokens || set === -1 || where === -1) return false;
  const held = (column: string | undefined) => column !== undefined && nameWords(column).some((w) => HOLD_COLUMN_WORDS.includes(w));
  if (!handedColumns(tokens.slice(set + 1, where), (t) => isPunctuation(t, ','), true).every(held)) return false;
  const filters = handedColumns(whereClause(tokens), (t) => isWord(t, 'and'), false);
  return (
    filters.every((column) => column !== undefined) && filters.some((column) => nameWords(column!).some((w) => ROW_KEY_WORDS.includes(w)))
  );
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
  const texts = new Map<TSESTree.Node, string>();
  for (const node of descendants(fn.body, sourceCode.visitorKeys)) {
    const text = (node.type === 'Literal' || node.type === 'TemplateLiteral') && sqlTextOf(node, sourceCode)?.text;
    if (text && isWriteSql(text)) texts.set(node, text);
  }
  const [write] = texts.keys();
  if (texts.size !== 1 || !touchesHeldRow(texts.get(write!)!) || !handsOwnValue(write!)) return false;
  const call = outermostCall(write!, fn.body);
  return call !== undefined && !workEffects(fn.body, { ...effectsOptions, skip: new Set([call]) }).sharedWrite;
}
