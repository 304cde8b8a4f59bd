// A cheap text test run before any AST work: whether a file can hold a read-then-write at all.
// Every finding needs a write site (a catalogue write method, or SQL with UPDATE) and a read site
// (a catalogue read method, a builder link such as `where`, or SQL with SELECT); the words come
// from src/knowledge/orm-reads-writes.ts and the read/write site helpers. Case-insensitive, so
// SQL keywords in any case pass.
import { INSTANCE_SAVE_HOOKS, LIBRARY_READS_WRITES } from '../../src/knowledge/orm-reads-writes.js';
import { BUILDER_READ_WORDS } from './read-site.js';
import { MONGOOSE_UPDATES } from './write-site.js';
import { wordPattern } from '../../analysis/source/word-pattern.js';

const libraries = Object.values(LIBRARY_READS_WRITES).filter((entry) => entry.library !== 'sql');
const anyOf = (words: Iterable<string>): RegExp => wordPattern(words, 'i');

/** Write methods, plus `update` for SQL (`UPDATE …`, `ON CONFLICT DO UPDATE`). */
const WRITE_WORDS = anyOf([...libraries.flatMap((entry) => entry.writes), ...MONGOOSE_UPDATES, 'update']);
/** Read methods and builder links, plus `select` for SQL. */
const READ_WORDS = anyOf([...libraries.flatMap((entry) => entry.reads), ...BUILDER_READ_WORDS, 'select']);

/** Save hooks (`@BeforeUpdate`, `beforeSave(…)`): the save that follows them is the write. */
const HOOK_WORDS = anyOf([...INSTANCE_SAVE_HOOKS.decorators, ...INSTANCE_SAVE_HOOKS.hookNames]);

/** An import of a project module: a read may sit in a helper there (`await loadDocument(id)`). */
const PROJECT_IMPORT = /\bfrom\s*['"](?:\.|@\/|~|#)|\brequire\(\s*['"]\./;

/** Whether `text` mentions both a write and a read `no-read-then-write` could recognise (maybe in a project module), or a save hook. */
export function mentionsReadAndWrite(text: string): boolean {
  return (WRITE_WORDS.test(text) && (READ_WORDS.test(text) || PROJECT_IMPORT.test(text))) || HOOK_WORDS.test(text);
}
