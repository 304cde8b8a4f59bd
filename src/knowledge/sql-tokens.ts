// A careful PostgreSQL tokenizer: enough of the lexical grammar that comments, string literals
// (standard, E'' escape strings, U&'' / B'' / X'' / N''), dollar-quoted bodies and quoted
// identifiers never look like code to the rules. Pure data in, data out; no ESLint.
//
// Offsets are indices into the text given (UTF-16 code units), `end` exclusive.

export type SqlTokenKind =
  /** Keyword or unquoted identifier; `value` is lower-cased. */
  | 'word'
  /** "Quoted identifier"; `value` is the identifier with `""` unescaped (case kept). */
  | 'quoted-identifier'
  /** '...' string literal (any prefix) or $tag$...$tag$ body; `value` is the content. */
  | 'string'
  | 'number'
  /** `$1` positional parameter (template placeholders are rendered as these too). */
  | 'parameter'
  /** One of `( ) , ; [ ] .` */
  | 'punctuation'
  /** Any operator run (`=`, `<>`, `::`, `->>`, `?` …). */
  | 'operator';

export interface SqlToken {
  kind: SqlTokenKind;
  value: string;
  start: number;
  end: number;
}

const WORD_START = /[A-Za-z_\u0080-\uffff]/;
const WORD_PART = /[A-Za-z0-9_$\u0080-\uffff]/;
const DIGIT = /[0-9]/;
const OPERATOR_CHAR = /[+\-*/<>=~!@#%^&|`?:]/;
const PUNCTUATION = new Set(['(', ')', ',', ';', '[', ']', '.']);

/** Thrown internally for text that is not SQL PostgreSQL could lex (unterminated quote…). */
class UnlexableSql extends Error {}

/** Returns the tokens of `text`, or `undefined` when it cannot be lexed (never throws). */
export function tokenizeSql(text: string): SqlToken[] | undefined {
  try {
    return lex(text);
  } catch (error) {
    if (error instanceof UnlexableSql) return undefined;
    throw error;
  }
}

function lex(text: string): SqlToken[] {
  const tokens: SqlToken[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text[i] as string;
    const next = text[i + 1];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v') {
      i++;
    } else if (c === '-' && next === '-') {
      const eol = text.indexOf('\n', i);
      i = eol === -1 ? n : eol + 1;
    } else if (c === '/' && next === '*') {
      i = skipBlockComment(text, i);
    } else if (c === "'") {
      i = pushString(tokens, text, i, i, false);
    } else if (c === '"') {
      i = pushQuotedIdentifier(tokens, text, i);
    } else if (c === '$') {
      i = lexDollar(tokens, text, i);
    } else if (DIGIT.test(c) || (c === '.' && next !== undefined && DIGIT.test(next))) {
      i = pushNumber(tokens, text, i);
    } else if (WORD_START.test(c)) {
      i = lexWordOrPrefixedString(tokens, text, i);
    } else if (PUNCTUATION.has(c)) {
      tokens.push({ kind: 'punctuation', value: c, start: i, end: i + 1 });
      i++;
    } else if (OPERATOR_CHAR.test(c)) {
      let j = i + 1;
      // An operator run stops where a comment starts.
      while (j < n && OPERATOR_CHAR.test(text[j] as string) && !isCommentStart(text, j)) j++;
      tokens.push({ kind: 'operator', value: text.slice(i, j), start: i, end: j });
      i = j;
    } else {
      // Anything else (a stray backslash, `{`) is not PostgreSQL: refuse rather than guess.
      throw new UnlexableSql(`unexpected ${c}`);
    }
  }
  return tokens;
}

function isCommentStart(text: string, i: number): boolean {
  return (text[i] === '-' && text[i + 1] === '-') || (text[i] === '/' && text[i + 1] === '*');
}

// PostgreSQL block comments nest.
function skipBlockComment(text: string, start: number): number {
  let depth = 0;
  let i = start;
  while (i < text.length) {
    if (text[i] === '/' && text[i + 1] === '*') {
      depth++;
      i += 2;
    } else if (text[i] === '*' && text[i + 1] === '/') {
      depth--;
      i += 2;
      if (depth === 0) return i;
    } else {
      i++;
    }
  }
  throw new UnlexableSql('unterminated comment');
}

/** `'…'` with `''` doubling; with `backslashEscapes` (E'…') a backslash escapes the next char. */
function pushString(tokens: SqlToken[], text: string, tokenStart: number, quote: number, backslashEscapes: boolean): number {
  let value = '';
  let i = quote + 1;
  while (i < text.length) {
    const c = text[i] as string;
    if (backslashEscapes && c === '\\') {
      value += text[i + 1] ?? '';
      i += 2;
    } else if (c === "'") {
      if (text[i + 1] === "'") {
        value += "'";
        i += 2;
      } else {
        tokens.push({ kind: 'string', value, start: tokenStart, end: i + 1 });
        return i + 1;
      }
    } else {
      value += c;
      i++;
    }
  }
  throw new UnlexableSql('unterminated string');
}

function pushQuotedIdentifier(tokens: SqlToken[], text: string, start: number): number {
  let value = '';
  let i = start + 1;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '"') {
      if (text[i + 1] === '"') {
        value += '"';
        i += 2;
        continue;
      }
      tokens.push({ kind: 'quoted-identifier', value, start, end: i + 1 });
      return i + 1;
    }
    value += c;
    i++;
  }
  throw new UnlexableSql('unterminated quoted identifier');
}

// `$1` is a parameter; `$$…$$` and `$tag$…$tag$` are dollar-quoted string bodies.
function lexDollar(tokens: SqlToken[], text: string, start: number): number {
  let j = start + 1;
  if (DIGIT.test(text[j] ?? '')) {
    while (DIGIT.test(text[j] ?? '')) j++;
    tokens.push({ kind: 'parameter', value: text.slice(start, j), start, end: j });
    return j;
  }
  if (/[A-Za-z_\u0080-\uffff]/.test(text[j] ?? '')) {
    while (/[A-Za-z0-9_\u0080-\uffff]/.test(text[j] ?? '')) j++;
  }
  if (text[j] !== '$') throw new UnlexableSql('stray $');
  const delimiter = text.slice(start, j + 1);
  const close = text.indexOf(delimiter, j + 1);
  if (close === -1) throw new UnlexableSql('unterminated dollar quote');
  tokens.push({ kind: 'string', value: text.slice(j + 1, close), start, end: close + delimiter.length });
  return close + delimiter.length;
}

function pushNumber(tokens: SqlToken[], text: string, start: number): number {
  const match = /^(?:0[xX][0-9A-Fa-f_]+|0[oO][0-7_]+|0[bB][01_]+|(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9][0-9_]*)(?:[eE][+-]?[0-9]+)?)/.exec(
    text.slice(start, start + 64),
  );
  const end = start + (match?.[0].length ?? 1);
  tokens.push({ kind: 'number', value: text.slice(start, end), start, end });
  return end;
}

function lexWordOrPrefixedString(tokens: SqlToken[], text: string, start: number): number {
  const c = text[start] as string;
  const next = text[start + 1];
  // E'…' (backslash escapes), B'…', X'…', N'…', U&'…' — the prefix belongs to the string.
  if (next === "'") {
    const lower = c.toLowerCase();
    if (lower === 'e') return pushString(tokens, text, start, start + 1, true);
    if (lower === 'b' || lower === 'x' || lower === 'n') return pushString(tokens, text, start, start + 1, false);
  }
  if ((c === 'u' || c === 'U') && next === '&' && (text[start + 2] === "'" || text[start + 2] === '"')) {
    if (text[start + 2] === "'") return pushString(tokens, text, start, start + 2, false);
    const end = pushQuotedIdentifier(tokens, text, start + 2);
    const token = tokens[tokens.length - 1] as SqlToken;
    token.start = start;
    return end;
  }
  let j = start + 1;
  while (j < text.length && WORD_PART.test(text[j] as string)) j++;
  tokens.push({ kind: 'word', value: text.slice(start, j).toLowerCase(), start, end: j });
  return j;
}

/** The tokens of each `;`-separated statement (empty statements dropped). */
export function splitStatements(tokens: readonly SqlToken[]): SqlToken[][] {
  const statements: SqlToken[][] = [];
  let current: SqlToken[] = [];
  let depth = 0;
  for (const token of tokens) {
    if (token.kind === 'punctuation' && token.value === '(') depth++;
    if (token.kind === 'punctuation' && token.value === ')') depth = Math.max(0, depth - 1);
    if (token.kind === 'punctuation' && token.value === ';' && depth === 0) {
      if (current.length > 0) statements.push(current);
      current = [];
    } else {
      current.push(token);
    }
  }
  if (current.length > 0) statements.push(current);
  return statements;
}

export function isWord(token: SqlToken | undefined, ...values: string[]): boolean {
  return token?.kind === 'word' && (values.length === 0 || values.includes(token.value));
}

export function isPunctuation(token: SqlToken | undefined, value: string): boolean {
  return token?.kind === 'punctuation' && token.value === value;
}

/** A name of an identifier token (word or quoted), lower-cased for words. */
export function identifierName(token: SqlToken | undefined): string | undefined {
  if (token?.kind === 'word' || token?.kind === 'quoted-identifier') return token.value;
  return undefined;
}

export interface SqlFunctionCall {
  /** The function name as written, lower-cased (schema dropped). */
  name: string;
  /** The token of the name (its offsets are what a squiggle should cover). */
  nameToken: SqlToken;
  /** Index of the name token in the token list. */
  index: number;
}

/** Every `name(` call in `tokens` (a word directly followed by `(`, optionally schema-qualified). */
export function functionCalls(tokens: readonly SqlToken[]): SqlFunctionCall[] {
  const calls: SqlFunctionCall[] = [];
  for (let i = 0; i < tokens.length - 1; i++) {
    const token = tokens[i] as SqlToken;
    if ((token.kind === 'word' || token.kind === 'quoted-identifier') && isPunctuation(tokens[i + 1], '(')) {
      calls.push({ name: token.kind === 'word' ? token.value : token.value.toLowerCase(), nameToken: token, index: i });
    }
  }
  return calls;
}

/** Index of the first top-level (parenthesis depth 0) word `value` at or after `from`, or -1. */
export function indexOfTopLevelWord(tokens: readonly SqlToken[], value: string, from = 0): number {
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as SqlToken;
    if (isPunctuation(token, '(')) depth++;
    else if (isPunctuation(token, ')')) depth--;
    else if (i >= from && depth === 0 && isWord(token, value)) return i;
  }
  return -1;
}

/** Whether the word sequence `words` (e.g. `['skip', 'locked']`) occurs anywhere in `tokens`. */
export function hasWordSequence(tokens: readonly SqlToken[], words: readonly string[]): boolean {
  outer: for (let i = 0; i + words.length <= tokens.length; i++) {
    for (let k = 0; k < words.length; k++) if (!isWord(tokens[i + k], words[k] as string)) continue outer;
    return true;
  }
  return false;
}
