// One regular expression that matches when a text holds any of a list of words — the rules'
// text pre-checks. A word that contains another listed word adds nothing to the test (the
// shorter one matches wherever it does), and every alternative costs time at every position
// of the text, so those are dropped before the expression is built.
/** `word` as it matches itself inside a regular expression. */
export const escapeRegExp = (word: string): string => word.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** `/a|b|c/` (with `flags`) over the words none of the others is part of. */
export function wordPattern(words: Iterable<string>, flags = ''): RegExp {
  const fold = flags.includes('i') ? (word: string): string => word.toLowerCase() : (word: string): string => word;
  const unique = [...new Set(words)].filter((word) => word.length > 0);
  const kept = unique.filter(
    (word) => !unique.some((other) => other !== word && fold(word).includes(fold(other)) && (fold(other) !== fold(word) || other < word)),
  );
  return new RegExp(kept.length > 0 ? kept.map(escapeRegExp).join('|') : '(?!)', flags);
}
