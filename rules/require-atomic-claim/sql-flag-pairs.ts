// A flag a worker picks rows by and sets once it acted on them, written in SQL: read `WHERE
// survey_mailed = 0` (or `= false`), then `UPDATE … SET survey_mailed = 1 WHERE id = …`. Like a
// builder's `{ mailed: false }` read and `{ mailed: true }` write (flag-pairs.ts), the column is
// the rows' state whatever it is called. Asked of the comment-free text of a file that may hold
// an SQL `SET`; a read pending by such a flag alone is a claim only when its SQL filters the flag
// `0`/`false` and its function's text sets it `1`/`true` after the read.
import type { TSESLint } from '@typescript-eslint/utils';
import { enclosingFunction } from '../../analysis/sql/enclosing-function.js';
import type { PendingRead } from './claim-shapes.js';

/** The cheap test on the raw text: an SQL `SET name =` (never JavaScript). */
const SQL_SET = /\b(?:SET|set)\s+[A-Za-z_][\w$.]*\s*=/;
export const mayPairSqlFlags = (text: string): boolean => SQL_SET.test(text);

/** `WHERE flag = 0` / `AND t.flag = false`: the filtered name. */
const FILTERED_OFF_AT = /\b(?:WHERE|AND|where|and)\s+(?:[A-Za-z_][\w$]*\.)?([A-Za-z_][\w$]*)\s*=\s*(?:0|false|FALSE)\b/g;
/** An SQL `SET` clause, up to its `WHERE` or the end of the text it is written in. */
const SET_CLAUSE_AT = /\b(?:SET|set)\s+([^;`'"]*?)(?=\b(?:WHERE|where|RETURNING|returning)\b|[;`'"]|$)/g;
/** One assignment of a clause to `1` / `true`. */
const SET_ON_AT = /(?:^|,)\s*(?:[A-Za-z_][\w$]*\.)?([A-Za-z_][\w$]*)\s*=\s*(?:1|true|TRUE)\b/g;

/** The names SQL filters `0`/`false` in `code`. */
function filteredOff(code: string): Set<string> {
  const names = new Set<string>();
  FILTERED_OFF_AT.lastIndex = 0;
  for (let m = FILTERED_OFF_AT.exec(code); m; m = FILTERED_OFF_AT.exec(code)) names.add(m[1]!);
  return names;
}

/** The names SQL `SET` clauses in `code` write `1`/`true`. */
function setOn(code: string): Set<string> {
  const names = new Set<string>();
  SET_CLAUSE_AT.lastIndex = 0;
  for (let clause = SET_CLAUSE_AT.exec(code); clause; clause = SET_CLAUSE_AT.exec(code)) {
    SET_ON_AT.lastIndex = 0;
    const text = clause[1]!;
    for (let m = SET_ON_AT.exec(text); m; m = SET_ON_AT.exec(text)) names.add(m[1]!);
  }
  return names;
}

/** Names the file's SQL filters `0`/`false` and sets `1`/`true` (`code`: its comment-free text). */
export function sqlPairedFlags(code: string): string[] {
  const off = filteredOff(code);
  if (off.size === 0) return [];
  const on = setOn(code);
  return [...off].filter((name) => on.has(name));
}

/** Whether an SQL read filters `flag` `0`/`false`, and its function's text after it sets the flag `1`/`true`. */
export function setsSqlPairedFlag(read: PendingRead, flag: string, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  const fn = enclosingFunction(read.node);
  if (read.kind !== 'sql' || !fn || !filteredOff(sourceCode.getText(read.reportNode)).has(flag)) return false;
  const after = sourceCode.text.slice(read.node.range[1], fn.range[1]);
  return setOn(after).has(flag);
}
