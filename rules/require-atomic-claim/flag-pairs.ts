// A boolean flag a worker picks rows by and sets once it has acted on them: read `{ expired:
// false }`, then `row.update({ expired: true })`. The flag is the rows' state whatever it is
// called (`expired`, `lifted`, `announced`), so a file that filters a name on `false` and writes
// the same name `true` has it for a status-like column, beside the built-in names and the
// configured `statusColumns`. Asked of the comment-free text of the files with an update word;
// a read pending by such a flag alone (no built-in or configured state in it) is a claim only when
// it filters the flag `false` and its function sets it `true` (a schedule read `isEnabled: true`,
// in a file that also disables one, is not).
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { escapeRegExp } from '../../analysis/source/word-pattern.js';
import type { descendants } from '../../analysis/sql/descendants.js';
import { enclosingFunction } from '../../analysis/sql/enclosing-function.js';
import { pendingReadOf, type ClaimVocabulary, type PendingRead } from './claim-shapes.js';
import { filterPairs } from './filter-pairs.js';
import { setsColumnAfter } from './named-by-request.js';

type Node = TSESTree.Node;
type VisitorKeys = Parameters<typeof descendants>[1];

/** A key or column set to `false` (`expired: false`, `'expired': false`). */
const FALSE_KEY = /([A-Za-z_$][\w$]*)["']?\s*:\s*false\b/g;

const FALSE_VALUE = /:\s*false\b/;
const TRUE_VALUE = /[:=]\s*true\b/;

/**
 * The cheap test first, on the raw text: a key set to `false` and a name set to `true` (a comment
 * between a key and its value is the one spelling this turns away).
 */
export const mayPairFlags = (text: string): boolean =>
  text.includes('false') && text.includes('true') && FALSE_VALUE.test(text) && TRUE_VALUE.test(text);

/** Names the text filters on `false` and writes `true` (a key `name: true`, or `row.name = true`). */
export function pairedFlags(code: string): string[] {
  const names = new Set<string>();
  for (const match of code.matchAll(FALSE_KEY)) if (match[1]) names.add(match[1]);
  return [...names].filter((name) => {
    const word = escapeRegExp(name);
    return new RegExp(`(?:[^\\w$.]${word}["']?\\s*:|\\.${word}\\s*=)\\s*true\\b`).test(code);
  });
}

/** `false` or `true`, written as such. */
const isBoolean = (node: Node, value: boolean): boolean => node.type === 'Literal' && node.value === value;

/**
 * Whether a read picked by a paired flag makes its claim: the read filters the flag `false`, and
 * its function sets it `true` after the read (in a write's values, or on the row before a save).
 */
function setsPairedFlag(read: PendingRead, paired: readonly string[], keys: VisitorKeys): boolean {
  const flag = read.statusColumn;
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
  if (!paired.includes(read.statusColumn ?? '') || pendingReadOf(read.node, sourceCode, own)) return true;
  return setsPairedFlag(read, paired, sourceCode.visitorKeys);
}
