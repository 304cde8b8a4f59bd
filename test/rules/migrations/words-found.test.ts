// The one scan for many words (`WordScan`, rules/migrations/words-found.ts) must tell exactly what
// `text.includes(word)` tells for each word: a word inside another, words that overlap, a word at
// the very end, the same word twice in the list, an empty word.
import { describe, expect, it } from 'vitest';
import { WordScan } from '../../../rules/migrations/words-found.js';
import { possibleMethodEntries } from '../../../rules/migrations/method-entries.js';

const WORDS = ['sync', 'syncIndexes', 'up', 'push', 'getMigrator', 'migrator', 'migrate', 'migrateToLatest', 'sync', ''];
const TEXTS = [
  '',
  'syncIndexes',
  'Model.syncIndexes()',
  'orm.getMigrator().up()',
  'migrateToLatest',
  'a.pus h',
  'xpush',
  'mig/* */rator',
  'the last word is up',
  'u',
  'getMigratorgetMigrator',
];

describe('WordScan', () => {
  it.each(TEXTS)('finds what includes finds in %j', (text) => {
    const expected = new Set(WORDS.filter((word) => word.length > 0 && text.includes(word)));
    expect(new WordScan(WORDS).found(text)).toEqual(expected);
  });

  it('matches nothing with no words', () => {
    expect(new WordScan([]).found('anything').size).toBe(0);
  });

  it('gives the method entries of a word found only inside another', () => {
    // `migrate` (graphile-worker) lies inside `migrateToLatest` (Kysely): both entries are possible.
    const entries = possibleMethodEntries(new Set(['kysely', 'graphile-worker']), 'await migrator.migrateToLatest()');
    expect(entries.own.map((m) => m.library).sort()).toEqual(['graphile-worker', 'kysely']);
  });
});
