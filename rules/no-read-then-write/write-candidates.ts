// Raw-text answers for the pre-check of `no-read-then-write`, without the tree and without a
// comment-free copy of the file: whether a match lies in the code (not in a comment, by the
// parser's comment ranges), and whether a file could send a SQL write at all. Every finding is
// made at a write — a write method called, SQL UPDATE sent by a call or tagged template, a field
// changed in a save hook — so a file with no place for one holds no finding.
import { SQL_METHODS, SQL_TAG_FACTORY_MODULES, SQL_TAGS } from '../../src/knowledge/sql.js';
import { escapeRegExp } from '../../analysis/source/word-pattern.js';
import { tokenAt, type TokenLike } from '../../analysis/source/string-text.js';

/**
 * Whitespace and comments between a `.` (or `[`) and the name after it. Each comment matches one
 * way only (a block comment ends at its first `*\/`, a line comment at the end of its line), so a
 * failed match never backtracks through the ways a run of comments could be split.
 */
export const GAP = String.raw`(?:\s|/\*(?:[^*]|\*(?!/))*\*/|//[^\n]*(?![^\n]))*`;

/**
 * A name the parser decodes (`repo.sa\u0076e`, `repo['\x73ave']`, a tag `s\u0071l`): the text does
 * not spell it, so anything may be called there.
 */
const ESCAPED_NAME = String.raw`\\u(?:[0-9a-fA-F]{4}|\{)|\[${GAP}(?:'[^'\\\n]*|"[^"\\\n]*|\`[^\`\\]*)\\`;
/** A call of a method that sends SQL (`pool.query(…)`, `knex.raw(…)`). */
const SQL_CALL = String.raw`(?:\.|\[)${GAP}['"\`]?(?:${[...SQL_METHODS].map(escapeRegExp).join('|')})(?![\w$])`;
/** A SQL template tag (`sql`…``, `Prisma.sql`, `prisma.$queryRaw`…``) as a whole name. */
const SQL_TAG = String.raw`(?<![\w$])(?:${[...SQL_TAGS].map(escapeRegExp).join('|')})(?![\w$])`;

const SQL_SENDS = new RegExp(`${ESCAPED_NAME}|${SQL_CALL}|${SQL_TAG}`);
/** A module whose instances are SQL tags under any name (postgres.js: `const db = postgres(url); db\`…\``). */
const TAG_FACTORY_MODULE = new RegExp(`['"\`](?:${SQL_TAG_FACTORY_MODULES.map(escapeRegExp).join('|')})['"\`]`);

/**
 * Whether `text` may hold a call or tagged template that sends SQL (the only writes a file without
 * a write method or a save hook can make): a SQL method called, a SQL tag, a template in a file
 * that makes tags from a factory module, or a name the text does not spell.
 */
export function maySendSql(text: string): boolean {
  return SQL_SENDS.test(text) || (text.includes('`') && TAG_FACTORY_MODULE.test(text));
}

/** Whether `at` lies inside one of `comments` (sorted, as the parser gives them). */
export function inComment(comments: readonly TokenLike[], at: number): boolean {
  const comment = comments[tokenAt(comments, at, 0)];
  return comment !== undefined && comment.range[0] <= at;
}

/**
 * Whether `pattern` (global) matches `text` outside its comments: the same answer as testing the
 * text with each comment blanked out, for a pattern whose matches hold no gap a comment could
 * fill (plain words) — a word never runs into a comment, so it lies wholly in one or wholly out.
 */
export function matchesInCode(pattern: RegExp, text: string, comments: readonly TokenLike[]): boolean {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (comments.length === 0 || !inComment(comments, match.index)) {
      pattern.lastIndex = 0;
      return true;
    }
  }
  return false;
}
