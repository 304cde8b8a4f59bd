// The calls of a file whose callee ends in a name of interest (`initDb()`, `db.setupDatabase?.()`,
// `migrations.up()`), and the properties keyed by an option (`synchronize: true`), found from the
// text instead of a listener on every call or property: each occurrence of the name in the code
// that a call may follow is looked up in the tree (`nodeAtThroughDecorators`: a NestJS module's decorator too), and kept when it is the callee
// (through `!`, `as`, `satisfies`, `?.` and parentheses) of a call, or the key of a property. A
// file that calls a few thousand functions and names a runner twice costs two look-ups, not a
// listener call per call expression.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { isIdentifierCode } from '../../analysis/source/identifier-code.js';
import { nodeAtThroughDecorators } from '../../analysis/ast/node-at-through-decorators.js';
import { calleeName } from '../../analysis/ast/callee-name.js';
import { isValueWrapper, unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { propertyKeyName } from '../../analysis/ast/property-names.js';
import { isCodeAt } from './schema-write-forms.js';
import { isQuote, skipSpace, startsWord } from './text-shapes.js';
import { wordPattern } from '../../analysis/source/word-pattern.js';
import { CROSS_FILE_CANDIDATE } from '../../src/knowledge/migration-runs.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

/**
 * Whether what follows a name (ending at `end`) may make it a callee: `(`, type arguments `<`,
 * `?.`, a non-null `!`, a closing quote and `]` of a computed member, a `)` that a call or another
 * of these follows, `as` / `satisfies`. Wider than `callOpenAt` on purpose: the tree decides.
 */
export function mayCallAt(text: string, end: number): boolean {
  const i = skipSpace(text, end);
  const code = text.charCodeAt(i);
  if (code === 40 || code === 60) return true; // ( <
  if (code === 63) return text.charCodeAt(i + 1) === 46; // ?.
  if (code === 33) return text.charCodeAt(i + 1) !== 61; // ! but not !=
  if (isQuote(code)) return text.charCodeAt(i + 1) === 93 && mayCallAt(text, i + 2); // '](
  if (code === 41) return mayCallAt(text, i + 1); // )(
  return startsWord(text, i, 'as') || startsWord(text, i, 'satisfies');
}

/** The call whose callee (under value wrappers) ends in the name node at `node`, if any. */
function callOfName(node: TSESTree.Node): TSESTree.CallExpression | undefined {
  let current: TSESTree.Node = node;
  if (current.type === 'TemplateElement' && current.parent?.type === 'TemplateLiteral') current = current.parent;
  const member = current.parent;
  if (member?.type === 'MemberExpression' && member.property === current) current = member;
  for (let parent = current.parent; parent && isValueWrapper(parent) && parent.expression === current; parent = current.parent)
    current = parent;
  const call = current.parent;
  return call?.type === 'CallExpression' && call.callee === current ? call : undefined;
}

/**
 * The calls (in source order, outer before inner) whose callee name passes `isName`, found from
 * the occurrences of `pattern` (global; a stem every such name holds) in the code: every call a
 * listener on `CallExpression` testing `calleeName` would collect.
 */
export function callsNamed(sourceCode: SourceCode, pattern: RegExp, isName: (name: string) => boolean): TSESTree.CallExpression[] {
  const text = sourceCode.text;
  const tokens = sourceCode.ast.tokens;
  const calls = new Set<TSESTree.CallExpression>();
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    let start = match.index;
    let end = start + match[0].length;
    while (isIdentifierCode(text.charCodeAt(end))) end++;
    pattern.lastIndex = end;
    while (start > 0 && isIdentifierCode(text.charCodeAt(start - 1))) start--;
    if (!isName(text.slice(start, end)) || !mayCallAt(text, end) || !isCodeAt(text, tokens, start)) continue;
    const name = nodeAtThroughDecorators(sourceCode, start);
    const call = name && callOfName(name);
    if (call) {
      const called = calleeName(call);
      if (called !== undefined && isName(called)) calls.add(call);
    }
  }
  return [...calls].sort((a, b) => a.range[0] - b.range[0] || b.range[1] - a.range[1]);
}

/** Per set of method names (a few combinations occur), the pattern that finds them. */
const methodPatterns = new Map<string, RegExp>();

/** Calls of a member named one of `names` (`knex.migrate.latest()`, `sequelize.sync()`), in source order. */
export function memberCallsNamed(sourceCode: SourceCode, names: ReadonlySet<string>): TSESTree.CallExpression[] {
  const key = [...names].join(' ');
  let pattern = methodPatterns.get(key);
  if (!pattern) methodPatterns.set(key, (pattern = new RegExp(wordPattern(names).source, 'g')));
  const calls = callsNamed(sourceCode, pattern, (name) => names.has(name));
  return calls.filter((call) => unwrapExpression(call.callee).type === 'MemberExpression');
}

/**
 * The object properties (in source order) keyed by one of `keys` (`synchronize: true`,
 * `'migrationsRun': x`, `['synchronize']: x`, `{ synchronize }`), found from each whole-word
 * occurrence of a key in the text: every property a listener on `Property` testing
 * `propertyKeyName` would collect.
 */
export function propertiesKeyed(sourceCode: SourceCode, keys: readonly string[]): TSESTree.Property[] {
  const text = sourceCode.text;
  const properties: TSESTree.Property[] = [];
  for (const key of keys) {
    for (let at = text.indexOf(key); at >= 0; at = text.indexOf(key, at + key.length)) {
      if (isIdentifierCode(text.charCodeAt(at - 1)) || isIdentifierCode(text.charCodeAt(at + key.length))) continue;
      const node = nodeAtThroughDecorators(sourceCode, at);
      const property = node?.parent;
      if (property?.type === 'Property' && property.key === node && propertyKeyName(property) === key) properties.push(property);
    }
  }
  return properties.sort((a, b) => a.range[0] - b.range[0]);
}

/** Where the names asked about across files (`CROSS_FILE_CANDIDATE`) are looked for: a stem each of them holds. */
const CROSS_FILE_STEMS = /migrat|database|schema|db/gi;
const isCrossFileName = (name: string): boolean => CROSS_FILE_CANDIDATE.test(name);

/**
 * The calls of a file whose names may be asked about across files, looked for when first asked:
 * at the start only when the file's words alone admit nothing, else at the end of a file that is
 * not exempt (an exempt file never looks).
 */
export function crossFileCallsOf(sourceCode: SourceCode, text: string): () => TSESTree.CallExpression[] {
  let calls: TSESTree.CallExpression[] | undefined;
  return () => (calls ??= CROSS_FILE_CANDIDATE.test(text) ? callsNamed(sourceCode, CROSS_FILE_STEMS, isCrossFileName) : []);
}
