// A boolean flag a worker picks rows by and sets once it has acted on them: read `{ expired:
// false }`, then `row.update({ expired: true })`. The flag is the rows' state whatever it is
// called (`expired`, `lifted`, `announced`), so a file that filters a name on `false` and writes
// the same name `true` has it for a status-like column, beside the built-in names and the
// configured `statusColumns`. Asked of the comment-free text of the files with an update word.
import { escapeRegExp } from '../../analysis/source/word-pattern.js';

/** A key or column set to `false` (`expired: false`, `'expired': false`). */
const FALSE_KEY = /([A-Za-z_$][\w$]*)["']?\s*:\s*false\b/g;

/** The cheap test first: both words in the text. */
export const mayPairFlags = (text: string): boolean => text.includes('false') && text.includes('true');

/** Names the text filters on `false` and writes `true` (a key `name: true`, or `row.name = true`). */
export function pairedFlags(code: string): string[] {
  const names = new Set<string>();
  for (const match of code.matchAll(FALSE_KEY)) if (match[1]) names.add(match[1]);
  return [...names].filter((name) => {
    const word = escapeRegExp(name);
    return new RegExp(`(?:[^\\w$.]${word}["']?\\s*:|\\.${word}\\s*=)\\s*true\\b`).test(code);
  });
}
