// The shapes of JavaScript text around a name, read from the raw text without the tree: white
// space and comments skipped, what follows a name (a call's argument list, through `?.`, `!`, `as`),
// what precedes it (the chain it ends, the word before). The first tests of `no-in-app-migrations`
// (schema-write-forms.ts) and its name finders (called-names.ts) ask them of each occurrence of a word.
import { isIdentifierCode } from '../../analysis/source/identifier-code.js';

export const isQuote = (code: number): boolean => code === 39 || code === 34 || code === 96;

/** The position of the next character at or after `at` that is neither white space nor in a comment (`migrate /* all *\/ (db)`). */
export function skipSpace(text: string, at: number): number {
  let i = at;
  for (;;) {
    const code = text.charCodeAt(i);
    if (code <= 32 || code === 0xa0) i++;
    else if (code === 47 && text.charCodeAt(i + 1) === 42) {
      const close = text.indexOf('*/', i + 2);
      if (close < 0) return text.length;
      i = close + 2;
    } else if (code === 47 && text.charCodeAt(i + 1) === 47) {
      const newline = text.indexOf('\n', i + 2);
      if (newline < 0) return text.length;
      i = newline + 1;
    } else return i;
  }
}

/** Whether `word` (`as`, `satisfies`, `new`) starts at `at`, as a whole word. */
export const startsWord = (text: string, at: number, word: string): boolean =>
  text.startsWith(word, at) && !isIdentifierCode(text.charCodeAt(at + word.length));

/**
 * The position after the first `)` from `from` that closes a parenthesis opened before `from`;
 * -1 when none comes within `limit` characters or before a `;`. Past a type assertion that closes
 * a parenthesised callee or receiver (`(umzug as Umzug).up()`, `(run as () => void)()`), or past an
 * argument list (`from` just after its `(`).
 */
export function afterClosing(text: string, from: number, limit: number): number {
  let depth = 0;
  const end = Math.min(text.length, from + limit);
  for (let i = from; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code === 40) depth++;
    else if (code === 41 && depth-- === 0) return i + 1;
    else if (code === 59) return -1; // ;
  }
  return -1;
}

/** Where the chain of names and dots that ends with the name starting at `start` begins (`a.b.name` → `a`). */
export function chainStart(text: string, start: number): number {
  let i = start;
  while (i > 0 && (isIdentifierCode(text.charCodeAt(i - 1)) || text.charCodeAt(i - 1) === 46)) i--;
  return i;
}

/** The code of the last character before `at` that is not white space. */
export function codeBefore(text: string, at: number): number {
  let i = at;
  while (i > 0 && text.charCodeAt(i - 1) <= 32) i--;
  return i > 0 ? text.charCodeAt(i - 1) : -1;
}

/**
 * Where the argument list opens when what follows position `at` (just after a name) calls it:
 * `(`, `?.(`, `!(`, `'](` (a computed member), `)(` (a parenthesised callee), `as T)(`; the
 * position of `<` for `<T>(` (the text cannot tell a type argument from a comparison, so it
 * counts); -1 for no call.
 */
export function callOpenAt(text: string, at: number): number {
  const i = skipSpace(text, at);
  switch (text.charCodeAt(i)) {
    case 40: // (
    case 60: // <
      return i;
    case 63: // ?.(
      return text.charCodeAt(i + 1) === 46 ? openAt(text, i + 2) : -1;
    case 33: // !
      return text.charCodeAt(i + 1) === 61 ? -1 : callOpenAt(text, i + 1);
    case 39: // ' " ` then ]
    case 34:
    case 96:
      return text.charCodeAt(i + 1) === 93 ? callOpenAt(text, i + 2) : -1;
    case 41: // )(
      return openAt(text, i + 1);
    default: {
      if (!startsWord(text, i, 'as') && !startsWord(text, i, 'satisfies')) return -1;
      const past = afterClosing(text, i, 200);
      return past < 0 ? -1 : openAt(text, past);
    }
  }
}

/** The position of `(` at `at` after white space, or -1. */
function openAt(text: string, at: number): number {
  const i = skipSpace(text, at);
  return text.charCodeAt(i) === 40 ? i : -1;
}

/** Words before a method's name in a class body (`async migrate(): Promise<void> {`). */
export const MODIFIERS: ReadonlySet<string> = new Set([
  'async',
  'public',
  'private',
  'protected',
  'static',
  'override',
  'abstract',
  'declare',
  'get',
  'set',
]);

/** The identifier that ends at `end` (white space before `end` skipped). */
export function wordBefore(text: string, end: number): string {
  let to = end;
  while (to > 0 && text.charCodeAt(to - 1) <= 32) to--;
  let from = to;
  while (from > 0 && isIdentifierCode(text.charCodeAt(from - 1))) from--;
  return text.slice(from, to);
}
