// A boolean flag a worker picks rows by and sets once it has acted on them: read `{ expired:
// false }`, then `row.update({ expired: true })`. The flag is the rows' state whatever it is
// called (`expired`, `lifted`, `announced`), so a file that filters a name on `false` and writes
// the same name `true` has it for a status-like column, beside the built-in names and the
// configured `statusColumns`. Asked of the comment-free text of the files with an update word;
// a read pending by such a flag alone (no built-in or configured state in it) is a claim only when
// it filters the flag `false` and its function sets it `true` (a schedule read `isEnabled: true`,
// in a file that also disables one, is not).
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type { descendants } from '../../analysis/sql/descendants.js';
import { enclosingFunction } from '../../analysis/sql/enclosing-function.js';
import { pendingReadOf, type ClaimVocabulary, type PendingRead } from './claim-shapes.js';
import { filterPairs } from './filter-pairs.js';
import { setsColumnAfter } from './named-by-request.js';
import { setsSqlPairedFlag } from './sql-flag-pairs.js';

type Node = TSESTree.Node;
type VisitorKeys = Parameters<typeof descendants>[1];

const FALSE_VALUE = /:\s*false\b/;
const TRUE_VALUE = /[:=]\s*true\b/;

/**
 * The cheap test first, on the raw text: a key set to `false` and a name set to `true` (a comment
 * between a key and its value is the one spelling this turns away).
 */
export const mayPairFlags = (text: string): boolean =>
  text.includes('false') && text.includes('true') && (FALSE_VALUE.test(text) || COLUMN_FALSE.test(text)) && TRUE_VALUE.test(text);

/**
 * A builder's filter of a column named in a string on `false` (`.where('members.synced', '=', false)`,
 * `.where('synced', false)`): the column's last name segment is the key.
 */
const COLUMN_FALSE = /['"](?:[\w$]+\.)?[A-Za-z_$][\w$]*['"]\s*,\s*(?:['"](?:=|is)['"]\s*,\s*)?false\b/;
const COLUMN_FALSE_AT = /['"](?:[\w$]+\.)?([A-Za-z_$][\w$]*)['"]\s*,\s*(?:['"](?:=|is)['"]\s*,\s*)?false\b/g;

/** A value `false` after a colon, and `true` after a colon or `=`: the name before each is read backwards. */
const FALSE_VALUE_AT = /:\s*false\b/g;
const TRUE_VALUE_AT = /[:=]\s*true\b/g;
const SPACE = /\s/;

/** `[\w$]`, and `[A-Za-z_$]` (a name's first character). */
const isNameCode = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36;
const isNameStart = (c: number): boolean => isNameCode(c) && !(c >= 48 && c <= 57);

/** Where the spaces (`\s`) that end at `at` begin. */
function spacesFrom(code: string, at: number): number {
  while (at > 0 && SPACE.test(code[at - 1]!)) at--;
  return at;
}

/** Where one quote that ends at `at` begins, or `at`. */
const quoteFrom = (code: string, at: number): number => (at > 0 && (code[at - 1] === '"' || code[at - 1] === "'") ? at - 1 : at);

/** Where the name characters (`[\w$]`) that end at `at` begin. */
function nameFrom(code: string, at: number): number {
  while (at > 0 && isNameCode(code.charCodeAt(at - 1))) at--;
  return at;
}

/**
 * The keys the text sets to `false` (`expired: false`, `'expired': false`): what the matches of
 * `([A-Za-z_$][\w$]*)["']?\s*:\s*false\b`, taken in turn, capture — found from each `: false`
 * backwards, so the name is not tried at each of its characters. A key's name starts at its
 * first letter, `_` or `$` after where the last match ended (where that scan would go on from).
 */
function falseKeys(code: string): Set<string> {
  const names = new Set<string>();
  let from = 0;
  FALSE_VALUE_AT.lastIndex = 0;
  for (let match = FALSE_VALUE_AT.exec(code); match; match = FALSE_VALUE_AT.exec(code)) {
    const end = quoteFrom(code, spacesFrom(code, match.index));
    let start = Math.max(nameFrom(code, end), from);
    while (start < end && !isNameStart(code.charCodeAt(start))) start++;
    if (start === end) continue;
    names.add(code.slice(start, end));
    from = FALSE_VALUE_AT.lastIndex;
  }
  if (!COLUMN_FALSE.test(code)) return names;
  COLUMN_FALSE_AT.lastIndex = 0;
  for (let match = COLUMN_FALSE_AT.exec(code); match; match = COLUMN_FALSE_AT.exec(code)) names.add(match[1]!);
  return names;
}

/**
 * The names the text writes `true`: a key after a character none of `[\w$.]` (`expired: true`,
 * `'expired': true`) and a member (`row.expired = true`), the whole name before the value.
 */
function trueNames(code: string): Set<string> {
  const names = new Set<string>();
  TRUE_VALUE_AT.lastIndex = 0;
  for (let match = TRUE_VALUE_AT.exec(code); match; match = TRUE_VALUE_AT.exec(code)) {
    const key = code[match.index] === ':';
    const spaces = spacesFrom(code, match.index);
    const end = key ? quoteFrom(code, spaces) : spaces;
    const start = nameFrom(code, end);
    if (start === end || start === 0 || (code[start - 1] === '.') === key) continue;
    names.add(code.slice(start, end));
  }
  return names;
}

/** Names the text filters on `false` and writes `true` (a key `name: true`, or `row.name = true`). */
export function pairedFlags(code: string): string[] {
  const keys = falseKeys(code);
  if (keys.size === 0) return [];
  const written = trueNames(code);
  return [...keys].filter((name) => written.has(name));
}

/** A column's own name: `synced` of `'members.synced'`. */
const lastSegment = (column: string | undefined): string | undefined => column?.split('.').pop();

/** `false` or `true`, written as such. */
const isBoolean = (node: Node, value: boolean): boolean => node.type === 'Literal' && node.value === value;

/**
 * Whether a read picked by a paired flag makes its claim: the read filters the flag `false`, and
 * its function sets it `true` after the read (in a write's values, or on the row before a save).
 */
function setsPairedFlag(read: PendingRead, paired: readonly string[], keys: VisitorKeys): boolean {
  const flag = lastSegment(read.statusColumn);
  const fn = enclosingFunction(read.node);
  if (flag === undefined || !fn || !paired.includes(flag)) return false;
  if (!filterPairs(read).some(({ key, value }) => key === flag && isBoolean(value, false))) return false;
  return setsColumnAfter(
    read.node,
    fn,
    keys,
    (name) => name === flag,
    (value) => isBoolean(value, true),
  );
}

/** The rule's vocabulary with the file's paired flags among its status columns. */
export const withPairedFlags = (own: ClaimVocabulary, paired: readonly string[]): ClaimVocabulary =>
  paired.length === 0 ? own : { ...own, statusColumns: [...own.statusColumns, ...paired] };

/**
 * Whether a read about to be reported makes its claim: always, unless it is pending only through a
 * paired flag (not by `own`, the built-in and configured names); then it must filter the flag
 * `false` and its function set it `true`.
 */
export function makesPairedFlagClaim(
  read: PendingRead,
  paired: readonly string[],
  own: ClaimVocabulary,
  sourceCode: Readonly<TSESLint.SourceCode>,
): boolean {
  const flag = lastSegment(read.statusColumn) ?? '';
  if (!paired.includes(flag) || pendingReadOf(read.node, sourceCode, own)) return true;
  return read.kind === 'sql' ? setsSqlPairedFlag(read, flag, sourceCode) : setsPairedFlag(read, paired, sourceCode.visitorKeys);
}
