// A cheap text test run before any AST work: whether a file can hold a read-then-write at all.
// Every finding needs a write site (a catalogue write method, or SQL with UPDATE) and a read site
// (a catalogue read method, a builder link such as `where`, or SQL with SELECT); the words come
// from src/knowledge/orm-reads-writes.ts and the read/write site helpers. Case-insensitive, so
// SQL keywords in any case pass.
import {
  INSTANCE_SAVE_HOOKS,
  LIBRARY_READS_WRITES,
  LOADER_VERBS,
  MIKRO_ORM_SCOPE,
  ROW_LIBRARIES,
  WRITE_HELPER_VERBS,
  CHAINED_WRITE_HELPER_VERB,
} from '../../src/knowledge/orm-reads-writes.js';
import { BUILDER_READ_WORDS } from './read-site.js';
import { MONGOOSE_UPDATES, WRITE_SITE_METHODS } from './write-site.js';
import { INCREMENT_METHODS } from './atomic-methods.js';
import { wordPattern } from '../../analysis/source/word-pattern.js';
import type { TokenLike } from '../../analysis/source/string-text.js';
import { GAP, inComment, matchesInCode } from './write-candidates.js';
import { REDIS_CLIENT_NAME } from '../../src/knowledge/redis-clients.js';
import { METEOR_UPDATES } from '../../src/knowledge/meteor-collections.js';
import { REQUEST_ROW_TEXT } from '../../src/knowledge/request-rows.js';
import { REDIS_READ_NAMES, REDIS_WRITE_NAMES } from './redis-site.js';

// MikroORM's writes (`flush`, `persistAndFlush`) are common words elsewhere (streams, loggers): they
// count only in a file that names one of its packages, which its findings need anyway.
const UNIT_OF_WORK_WRITES: readonly string[] = LIBRARY_READS_WRITES.mikroorm.writes;
const libraries = ROW_LIBRARIES.filter((entry) => entry.library !== 'sql');
const anyOf = (words: Iterable<string>): RegExp => wordPattern(words, 'i');
const namesUnitOfWork = (text: string): boolean => text.includes(MIKRO_ORM_SCOPE);

/** Write methods, plus `update` for SQL (`UPDATE …`, `ON CONFLICT DO UPDATE`); MikroORM's apart. */
const WRITE_WORDS = anyOf([
  ...libraries.flatMap((entry) => entry.writes).filter((word) => !UNIT_OF_WORK_WRITES.includes(word)),
  ...MONGOOSE_UPDATES,
  ...INCREMENT_METHODS,
  'update',
]);
const UNIT_OF_WORK_WORDS = anyOf(UNIT_OF_WORK_WRITES);
/** Read methods and builder links, plus `select` for SQL. */
const READ_WORDS = anyOf([...libraries.flatMap((entry) => entry.reads), ...BUILDER_READ_WORDS, 'select']);

const REDIS_WORDS_G = new RegExp(REDIS_CLIENT_NAME.source, 'gi');
const commandCalls = (names: Iterable<string>): RegExp => new RegExp(`(?:\\.|\\[)${GAP}['"\`]?(?:${[...names].join('|')})(?![\\w$])`, 'g');
/** A call of a Redis read (`.get(`, `.hGetAll(`) or write (`.set(`, `['hset'](`). */
const REDIS_READ_CALLS = commandCalls(REDIS_READ_NAMES);
const REDIS_WRITE_CALLS = commandCalls(REDIS_WRITE_NAMES);
/** The same, to test a text (no `g`: no position kept between tests). */
const REDIS_WRITE_CALL = new RegExp(REDIS_WRITE_CALLS.source);

/** Save hooks (`@BeforeUpdate`, `beforeSave(…)`): the save that follows them is the write. */
const HOOK_WORDS = anyOf([...INSTANCE_SAVE_HOOKS.decorators, ...INSTANCE_SAVE_HOOKS.hookNames]);

/** An import of a project module: a read may sit in a helper there (`await loadDocument(id)`). */
const PROJECT_IMPORT = /\bfrom\s*['"](?:\.|@\/|~|#)|\brequire\(\s*['"]\./;

/** The global forms the raw-text tests below iterate. */
const global = (pattern: RegExp): RegExp => new RegExp(pattern.source, `${pattern.flags}g`);
const WRITE_WORDS_G = global(WRITE_WORDS);
const UNIT_OF_WORK_WORDS_G = global(UNIT_OF_WORK_WORDS);
const READ_WORDS_G = global(READ_WORDS);
const HOOK_WORDS_G = global(HOOK_WORDS);
const PROJECT_IMPORT_G = global(PROJECT_IMPORT);
/** The import with a comment in a gap (`from /* … *\/ './x'`): blanked out, the comment is a space. */
const PROJECT_IMPORT_AROUND_COMMENTS = new RegExp(String.raw`\bfrom${GAP}['"](?:\.|@\/|~|#)|\brequire\(${GAP}['"]\.`, 'g');

/**
 * A call of a write method (`.save(`, `?.update(`, `['upsert'](`): `writeSiteOf` decides by the
 * method's name, so a file whose code names none after a `.` or in brackets holds no such write.
 * `.set(…)` is a write only below an `update`/`updateTable` link, which this finds. Comments may
 * sit between the dot and the name (the raw text is searched too).
 */
const writeCalls = (names: readonly string[], also = ''): RegExp =>
  new RegExp(`(?:\\.|\\[)${GAP}['"\`]?(?:${names.join('|')})(?![\\w$])${also}`, 'g');
/** …and a helper named for the write (`updateItemField(`, `.saveCounter(`, helper-writes.ts), in the same pass. */
const WRITE_HELPER_CALL = String.raw`|(?:(?<![\w$])_?(?:${WRITE_HELPER_VERBS.join('|')})|${CHAINED_WRITE_HELPER_VERB})[A-Z][\w$]*(?=\s*\()`;
const WRITE_CALLS = writeCalls(
  [...WRITE_SITE_METHODS, ...MONGOOSE_UPDATES, ...METEOR_UPDATES, ...INCREMENT_METHODS, 'updateTable'].filter(
    (name) => name !== 'set' && !UNIT_OF_WORK_WRITES.includes(name),
  ),
  WRITE_HELPER_CALL,
);
const UNIT_OF_WORK_CALLS = writeCalls(UNIT_OF_WORK_WRITES);
/** A helper named for a write, and one named for a read (`db.getComment(`, `loadItem(`): helper-reads.ts guesses such reads. */
const HELPER_WRITE = new RegExp(WRITE_HELPER_CALL.slice(1));
/** A document's own save (`doc.save()`, `doc.save({ session })`). */
const SAVE_CALL = /\.save\s*\(/;
const HELPER_READ = new RegExp(String.raw`(?<![\w$])(?:${LOADER_VERBS.join('|')})(?:One|By|[A-Z])[\w$]*\s*\(`);
/** A read helper called as a method (`bot.fetchProfile(`): the only loader whose saved result saved-loader-results.ts takes for a read. */
const HELPER_METHOD_READ = new RegExp(String.raw`\.\s*(?:${LOADER_VERBS.join('|')})(?:One|By|[A-Z])[\w$]*\s*\(`);

/**
 * Whether `text` names a write at all (a write method, `update` in SQL, a save hook: each holds
 * one of these words). Run on the raw text before comments are blanked out — comments only add
 * words — so most files are turned away without building their comment-free text.
 */
export function mentionsWriteWord(text: string): boolean {
  return WRITE_WORDS.test(text) || (namesUnitOfWork(text) && UNIT_OF_WORK_WORDS.test(text));
}

/** Write words and Redis's names in one expression: the first test of every file is one scan of its text. */
const WRITE_WORDS_OR_REDIS = new RegExp(`${WRITE_WORDS.source}|${REDIS_CLIENT_NAME.source}`, 'i');

/** `mentionsWriteWord(text) || mentionsRedis(text)`, in one scan where the text names neither (most files). */
export function mentionsWriteWordOrRedis(text: string): boolean {
  return WRITE_WORDS_OR_REDIS.test(text) || (namesUnitOfWork(text) && UNIT_OF_WORK_WORDS.test(text));
}

/** What the first test found in one scan: whether the text names a write word, and (asked when needed) whether it names Redis. */
export interface WriteWordOrRedis {
  writeWord: boolean;
  redis(): boolean;
}
/** The first test's expression with Redis's names in a group, to tell which of the two it met first. */
const WRITE_WORD_OR_REDIS_G = new RegExp(`${WRITE_WORDS.source}|(${REDIS_CLIENT_NAME.source})`, 'gi');
const WRITE_WORDS_FROM = global(WRITE_WORDS);
const REDIS_FROM = new RegExp(REDIS_CLIENT_NAME.source, 'gi');
/** Whether `pattern` (global) matches `text` at or after `at`. */
const matchesFrom = (pattern: RegExp, text: string, at: number): boolean => {
  pattern.lastIndex = at;
  return pattern.test(text);
};

/**
 * `mentionsWriteWordOrRedis(text)` (undefined when false) with `mentionsWriteWord(text)` and `mentionsRedis(text)`
 * as its answers: where the scan stopped neither word starts earlier, so each question left is asked of the rest only.
 */
export function writeWordOrRedisIn(text: string): WriteWordOrRedis | undefined {
  WRITE_WORD_OR_REDIS_G.lastIndex = 0;
  const match = WRITE_WORD_OR_REDIS_G.exec(text);
  if (!match) return namesUnitOfWork(text) && UNIT_OF_WORK_WORDS.test(text) ? { writeWord: true, redis: () => false } : undefined;
  const at = match.index;
  if (match[1] === undefined) return { writeWord: true, redis: () => matchesFrom(REDIS_FROM, text, at) };
  const writeWord = matchesFrom(WRITE_WORDS_FROM, text, at) || (namesUnitOfWork(text) && UNIT_OF_WORK_WORDS.test(text));
  return { writeWord, redis: () => true };
}

/**
 * Whether `text` names Redis (`ioredis`, `redis.set`, `RedisClientType`, `@InjectRedis`): a Redis
 * write is `set`, too common a word to test for, so a file without a write word is kept for its
 * Redis calls only when it names Redis (`redisWriteCallOffsets` then asks for both calls in code).
 */
export function mentionsRedis(text: string): boolean {
  return REDIS_CLIENT_NAME.test(text);
}

/**
 * Where the file's code calls a Redis write (`.set(`, `.hSet(`), when its code also names Redis and
 * calls a Redis read; `[]` otherwise. Only these calls mark write windows for Redis.
 */
export function redisWriteCallOffsets(text: string, comments: readonly TokenLike[]): number[] {
  if (!matchesInCode(REDIS_WORDS_G, text, comments) || !matchesInCode(REDIS_READ_CALLS, text, comments)) return [];
  const offsets: number[] = [];
  REDIS_WRITE_CALLS.lastIndex = 0;
  for (let match = REDIS_WRITE_CALLS.exec(text); match; match = REDIS_WRITE_CALLS.exec(text)) {
    if (!inComment(comments, match.index)) offsets.push(match.index);
  }
  return offsets;
}

/** Whether the raw text calls a Redis write anywhere (comments too): without one, `redisWriteCallOffsets` finds none. */
export function mayCallRedisWrite(text: string): boolean {
  return REDIS_WRITE_CALL.test(text);
}

/** Whether `code` names a save hook (`@BeforeUpdate`, `beforeSave`). */
export function mentionsSaveHook(code: string): boolean {
  return HOOK_WORDS.test(code);
}

/** Where `text` (the file's own text, so offsets are the AST's) names a write method, in order. */
export function writeCallOffsets(text: string): number[] {
  const offsets: number[] = [];
  for (const calls of namesUnitOfWork(text) ? [WRITE_CALLS, UNIT_OF_WORK_CALLS] : [WRITE_CALLS]) {
    calls.lastIndex = 0;
    for (let match = calls.exec(text); match; match = calls.exec(text)) offsets.push(match.index);
  }
  return offsets.length > 1 ? offsets.sort((a, b) => a - b) : offsets;
}

/** Where `text` names a save hook (`@BeforeUpdate`, `beforeSave`), in order. */
export function hookWordOffsets(text: string): number[] {
  const offsets: number[] = [];
  HOOK_WORDS_G.lastIndex = 0;
  for (let match = HOOK_WORDS_G.exec(text); match; match = HOOK_WORDS_G.exec(text)) offsets.push(match.index);
  return offsets;
}

/** Whether `text` mentions both a write and a read `no-read-then-write` could recognise (maybe in a project module), or a save hook. */
export function mentionsReadAndWrite(text: string): boolean {
  return (
    (mentionsWriteWord(text) &&
      (READ_WORDS.test(text) || PROJECT_IMPORT.test(text) || mentionsHelperReadAndWrite(text) || REQUEST_ROW_TEXT.test(text))) ||
    mentionsSaveHook(text)
  );
}

/** Whether the code names a project module, when only a comment in a gap could make it (`code`: the comment-free text). */
function importsProjectModule(text: string, comments: readonly TokenLike[], code: () => string): boolean {
  if (matchesInCode(PROJECT_IMPORT_G, text, comments)) return true;
  return comments.length > 0 && matchesInCode(PROJECT_IMPORT_AROUND_COMMENTS, text, comments) && PROJECT_IMPORT.test(code());
}

/**
 * `mentionsReadAndWrite` of the file's code (`text` with its `comments` blanked out, which `code`
 * builds), answered on the raw text: a word counts where it does not start in a comment. The
 * comment-free text is built only for an import with a comment inside it.
 */
export function mentionsReadAndWriteInCode(text: string, comments: readonly TokenLike[], code: () => string): boolean {
  return (
    ((matchesInCode(WRITE_WORDS_G, text, comments) || (namesUnitOfWork(text) && matchesInCode(UNIT_OF_WORK_WORDS_G, text, comments))) &&
      (matchesInCode(READ_WORDS_G, text, comments) || importsProjectModule(text, comments, code))) ||
    mentionsSaveHookInCode(text, comments)
  );
}

/**
 * Whether `text` calls a helper named for a write and one named for a read (`await
 * db.getComment(id)` … `db.updateComment(id, { ups })`), or a read helper called as a method and a
 * document's own `.save(` (saved-loader-results.ts), which `mentionsReadAndWrite` does not see when the file names
 * no library read and imports no project module (the helpers are handed in).
 */
export function mentionsHelperReadAndWrite(text: string): boolean {
  return (HELPER_WRITE.test(text) && HELPER_READ.test(text)) || (SAVE_CALL.test(text) && HELPER_METHOD_READ.test(text));
}

/** `mentionsSaveHook` of the file's code, answered on the raw text. */
export function mentionsSaveHookInCode(text: string, comments: readonly TokenLike[]): boolean {
  return matchesInCode(HOOK_WORDS_G, text, comments);
}

/** Whether a write method is called in the file's code, given where the raw text names one (`writeCallOffsets`). */
export function callsWriteInCode(writeCalls: readonly number[], comments: readonly TokenLike[]): boolean {
  return writeCalls.some((at) => !inComment(comments, at));
}
