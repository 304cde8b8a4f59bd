// Whether a text names a module the way an import or `require` must: as a whole string. A cheap
// pre-check on the raw text; the import tracking then matches the specifier exactly.

export const QUOTES = '\'"`';

/** Whether `text` holds `word` between quotes (`'node-cron'`, `"redis"`, `` `ioredis` ``). */
export function holdsQuoted(text: string, word: string): boolean {
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    if (at > 0 && QUOTES.includes(text[at - 1]!) && QUOTES.includes(text[at + word.length] ?? '')) return true;
  }
  return false;
}
