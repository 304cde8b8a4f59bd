// Which of a list of words a text holds anywhere, as `text.includes(word)` would tell for each, in
// one scan of the text instead of one per word or group: the scan stops at every position where
// one of the words starts and moves on by one character (so a word inside another, `sync` in
// `syncIndexes`, is found too); at each stop, the words of that first character are asked there.
// It ends early once every word is found.
import { escapeRegExp } from '../../analysis/source/word-pattern.js';

export class WordScan {
  private readonly byFirst = new Map<number, string[]>();
  private readonly count: number;
  private readonly any: RegExp;

  constructor(words: Iterable<string>) {
    for (const word of new Set(words)) {
      if (word.length === 0) continue;
      const first = word.charCodeAt(0);
      const list = this.byFirst.get(first);
      if (list) list.push(word);
      else this.byFirst.set(first, [word]);
    }
    const all = [...this.byFirst.values()].flat();
    this.count = all.length;
    this.any = new RegExp(all.length > 0 ? all.map(escapeRegExp).join('|') : '(?!)', 'g');
  }

  /** The words `text` holds (each non-empty word of the list that `text.includes`). */
  found(text: string): Set<string> {
    const found = new Set<string>();
    const any = this.any;
    any.lastIndex = 0;
    for (let match = any.exec(text); match; match = any.exec(text)) {
      const at = match.index;
      for (const word of this.byFirst.get(text.charCodeAt(at))!) if (!found.has(word) && text.startsWith(word, at)) found.add(word);
      if (found.size === this.count) break;
      any.lastIndex = at + 1;
    }
    return found;
  }
}
