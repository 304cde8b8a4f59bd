import { describe, expect, test } from 'vitest';
import { Linter } from 'eslint';
import tsParser from '@typescript-eslint/parser';
import { functionCalls, tokenizeSql } from '../../src/knowledge/sql-tokens.js';
import {
  isConditionalTransition,
  isPendingRowsSelect,
  parseSql,
  sessionAdvisoryLockCalls,
  statementKind,
} from '../../src/knowledge/sql.js';
import { sqlUsesListener, type SqlUse } from '../../analysis/sql/sql-text.js';

/** Runs sqlUsesListener over `code` and returns what it found, with the source text of locations. */
function usesOf(code: string, parser: 'ts' | 'js' = 'ts'): SqlUse[] {
  const found: SqlUse[] = [];
  const linter = new Linter({ configType: 'flat' });
  const probe = {
    create: (context: never) =>
      sqlUsesListener(context, (use) => {
        found.push(use);
      }),
  };
  const messages = linter.verify(code, [
    {
      plugins: { probe: { rules: { probe } } } as never,
      rules: { 'probe/probe': 'error' },
      ...(parser === 'ts' ? { languageOptions: { parser: tsParser as never } } : {}),
    },
  ]);
  expect(messages.filter((m) => m.fatal)).toEqual([]);
  return found;
}

/** The source text a SqlText location covers. */
function sliceAt(use: SqlUse, code: string, start: number, end: number): string {
  const range = [use.sql.offsetToIndex(start), use.sql.offsetToIndex(end)] as const;
  return code.slice(range[0], range[1]);
}

describe('tokenizeSql', () => {
  test('skips comments and keeps strings, dollar quotes and quoted identifiers as single tokens', () => {
    const sql = `SELECT 1 -- pg_advisory_lock(1)\n /* outer /* pg_try_advisory_lock(2) */ still */ , 'pg_advisory_lock(3)', $$pg_advisory_lock(4)$$, $body$x$body$, "pg_advisory_lock"(5), E'it\\'s', pg_advisory_lock(6)`;
    const tokens = tokenizeSql(sql);
    expect(tokens).toBeDefined();
    const calls = functionCalls(tokens ?? []).map((c) => `${c.nameToken.kind}:${c.name}`);
    // The quoted identifier is a call of a function with that exact name: PostgreSQL would call it.
    expect(calls).toEqual(['quoted-identifier:pg_advisory_lock', 'word:pg_advisory_lock']);
    expect(tokens?.filter((t) => t.kind === 'string').map((t) => t.value)).toEqual([
      'pg_advisory_lock(3)',
      'pg_advisory_lock(4)',
      'x',
      "it's",
    ]);
  });

  test('returns undefined for text it cannot lex', () => {
    expect(tokenizeSql("SELECT 'unterminated")).toBeUndefined();
    expect(tokenizeSql('SELECT /* open')).toBeUndefined();
    expect(tokenizeSql('SELECT $tag$ never closed')).toBeUndefined();
    expect(tokenizeSql('SELECT "half')).toBeUndefined();
    expect(tokenizeSql('SELECT { }')).toBeUndefined();
    expect(tokenizeSql("SELECT 'it''s', $1::int")?.map((t) => t.kind)).toEqual([
      'word',
      'string',
      'punctuation',
      'parameter',
      'operator',
      'word',
    ]);
  });
});

describe('parseSql and classification', () => {
  test('only text that starts like a statement is SQL', () => {
    expect(parseSql('select pg_advisory_lock(1)')).toBeDefined();
    expect(parseSql('  (SELECT 1)')).toBeDefined();
    expect(parseSql('pg_advisory_lock failed, retrying')).toBeUndefined();
    expect(parseSql('Hello world')).toBeUndefined();
    expect(parseSql('')).toBeUndefined();
  });

  test('parses each distinct string once (cached)', () => {
    const text = 'SELECT pg_advisory_lock(1) /* cached */';
    expect(parseSql(text)).toBe(parseSql(text));
    expect(parseSql('not sql at all')).toBe(parseSql('not sql at all'));
  });

  test('statement kinds', () => {
    const kind = (text: string) => statementKind(tokenizeSql(text) ?? []);
    expect(kind('BEGIN')).toBe('begin');
    expect(kind('start transaction isolation level serializable')).toBe('begin');
    expect(kind('COMMIT')).toBe('commit');
    expect(kind('ROLLBACK')).toBe('rollback');
    expect(kind('rollback to savepoint a')).toBe('other');
    expect(kind('WITH c AS (SELECT id FROM t) UPDATE t SET x = 1 FROM c')).toBe('update');
    expect(kind('WITH c AS (UPDATE t SET x = 1 RETURNING id) SELECT * FROM c')).toBe('select');
    expect(kind('(select 1)')).toBe('select');
  });

  test('advisory lock calls, pending reads and conditional transitions', () => {
    const parsed = parseSql(
      "SELECT pg_try_advisory_lock($1), pg_advisory_xact_lock(2), 'pg_advisory_unlock(1)'; SELECT pg_advisory_unlock_all()",
    );
    expect(parsed && sessionAdvisoryLockCalls(parsed).map((c) => `${c.name}:${c.fn.kind}`)).toEqual([
      'pg_try_advisory_lock:try',
      'pg_advisory_unlock_all:unlock',
    ]);
    const first = (text: string) => parseSql(text)?.statements[0] ?? { kind: 'other' as const, tokens: [] };
    expect(isPendingRowsSelect(first("SELECT * FROM jobs WHERE status = 'pending' LIMIT 10"))).toBe(true);
    expect(isPendingRowsSelect(first('SELECT id FROM app.outbox ORDER BY id'))).toBe(true);
    expect(isPendingRowsSelect(first('SELECT * FROM "Invoices" WHERE "processedAt" IS NULL'))).toBe(true);
    expect(isPendingRowsSelect(first("SELECT * FROM jobs WHERE status = 'pending' FOR UPDATE SKIP LOCKED"))).toBe(false);
    expect(isPendingRowsSelect(first('SELECT * FROM users WHERE id = $1'))).toBe(false);
    // The word "status" inside a string or comment is not a column.
    expect(isPendingRowsSelect(first("SELECT * FROM users WHERE name = 'status' -- status"))).toBe(false);
    expect(isConditionalTransition(first("UPDATE jobs SET status = 'done' WHERE id = $1 AND status = 'pending'"))).toBe(true);
    expect(isConditionalTransition(first("UPDATE jobs SET status = 'done' WHERE id = $1"))).toBe(false);
  });
});

describe('sqlUsesListener: the SQL a call sends', () => {
  test('string literal sent by pool.query, mapped back through escapes', () => {
    const code = "await pool.query('SELECT \\'x\\', pg_try_advisory_lock($1)', [1]);";
    const [use] = usesOf(code);
    expect(use?.method).toBe('query');
    expect(use?.client && code.slice(...use.client.range)).toBe('pool');
    const offset = use?.sql.text.indexOf('pg_try') ?? -1;
    expect(use && sliceAt(use, code, offset, offset + 'pg_try_advisory_lock'.length)).toBe('pg_try_advisory_lock');
    // An escape inside the range makes it not verbatim: no safe replacement range.
    expect(use?.sql.rangeOf(0, 12)).toBeUndefined();
    expect(use?.sql.rangeOf(offset, offset + 6)).toEqual([code.indexOf('pg_try'), code.indexOf('pg_try') + 6]);
  });

  test('template literal: placeholders become parameters, later quasis map correctly', () => {
    const code = 'await client.query(`SELECT ${a}, ${b}\r\n  , pg_advisory_unlock(${key})`);';
    const [use] = usesOf(code);
    expect(use?.sql.text).toBe('SELECT $1, $2\n  , pg_advisory_unlock($3)');
    expect(use?.sql.parameters.map((p) => code.slice(...p.range))).toEqual(['a', 'b', 'key']);
    const offset = use?.sql.text.indexOf('pg_advisory_unlock') ?? -1;
    expect(use && sliceAt(use, code, offset, offset + 18)).toBe('pg_advisory_unlock');
    expect(use?.sql.offsetToLoc(offset)).toEqual({ line: 2, column: 4 });
  });

  test('tagged templates: sql, Prisma.sql inside $queryRaw(), prisma.$executeRaw, postgres.js instances', () => {
    const code = [
      "import postgres from 'postgres';",
      'const db = postgres(process.env.URL);',
      'await db`select pg_advisory_lock(${k})`;',
      'await prisma.$queryRaw(Prisma.sql`select 2`);',
      'await prisma.$executeRaw`select 3`;',
      // compiled CommonJS: the tag through the module object, called without `this`
      'await (0, sql_1.sql)`select pg_advisory_unlock(${k})`.execute(db);',
      'await notSql`select 4`;',
    ].join('\n');
    const uses = usesOf(code);
    expect(uses.map((u) => `${u.method}:${u.sql.text}`)).toEqual([
      'db:select pg_advisory_lock($1)',
      '$queryRaw:select 2',
      '$executeRaw:select 3',
      'sql:select pg_advisory_unlock($1)',
      // an unknown tag: its text, read as any template is, sent by no known call
      'undefined:select 4',
    ]);
    expect(uses.at(-1)?.call).toBeUndefined();
    expect(uses.at(-1)?.client).toBeUndefined();
  });

  test('a tag the catalogue does not know: text that reads as SQL counts, other text does not', () => {
    const code = [
      'export async function hold(conn, key) {',
      '  await conn`select pg_try_advisory_lock(${key}) as ok`;',
      '  await this.reserved`select pg_advisory_unlock(${key})`;',
      '  return html`<p>pg_advisory_lock(${key})</p>` + css`select { color: red }` + gql`query Locks { id }`;',
      '}',
    ].join('\n');
    const uses = usesOf(code);
    expect(uses.map((u) => u.sql.text)).toEqual(['select pg_try_advisory_lock($1) as ok', 'select pg_advisory_unlock($1)']);
    const offset = uses[0]?.sql.text.indexOf('pg_try') ?? -1;
    expect(uses[0] && sliceAt(uses[0], code, offset, offset + 6)).toBe('pg_try');
  });

  test('config objects, knex.raw, Unsafe variants, TypeORM query, concatenation and constants by name', () => {
    const code = [
      "const LOCK = 'SELECT pg_advisory_lock(' + '$1)';",
      'const ALIAS = LOCK;',
      "await pool.query({ text: 'select 1', values: [] });",
      "await knex.raw('select 2');",
      "await prisma.$queryRawUnsafe('select 3');",
      "await dataSource.query('select 4');",
      'await client.query(ALIAS, [1]);',
      "let changed = 'select 5'; changed = 'select 6'; await client.query(changed);",
    ].join('\n');
    const uses = usesOf(code, 'js');
    const summary = uses.map((u) => `${u.method ?? '-'}:${u.sql.text}`);
    expect(summary).toContain('query:SELECT pg_advisory_lock($1)');
    expect(summary).toContain('query:select 1');
    expect(summary).toContain('raw:select 2');
    expect(summary).toContain('$queryRawUnsafe:select 3');
    expect(summary).toContain('query:select 4');
    // A reassigned variable is not a constant: only its literals are seen, as bare SQL.
    expect(summary).toContain('-:select 5');
    expect(summary).not.toContain('query:select 5');
    const lock = uses.find((u) => u.sql.text.startsWith('SELECT pg'));
    const offset = lock?.sql.text.indexOf('$1') ?? -1;
    expect(lock && sliceAt(lock, code, offset, offset + 2)).toBe('$1');
  });

  test('unicode escapes and line continuations before the name still map to the name', () => {
    const code = "await pool.query('SELECT \\u{1F600} \\x41 \\u0042 \\\n pg_advisory_lock(1)');";
    const [use] = usesOf(code, 'js');
    const offset = use?.sql.text.indexOf('pg_advisory_lock') ?? -1;
    expect(offset).toBeGreaterThan(0);
    expect(use && sliceAt(use, code, offset, offset + 16)).toBe('pg_advisory_lock');
    expect(use?.sql.rangeOf(offset, offset + 16)).toEqual([code.indexOf('pg_advisory_lock'), code.indexOf('pg_advisory_lock') + 16]);
  });

  test('text that is not SQL and unparsable SQL are skipped', () => {
    const code = ["log('pg_advisory_lock failed');", "await pool.query('SELECT \"broken');", "import x from 'select';"].join('\n');
    expect(usesOf(code).map((u) => u.sql.text)).toEqual([]);
  });
});
