// The text pre-check of no-read-then-write, before any walk: it answers on the raw text with the
// parser's comment ranges (no comment-free copy of the file), and turns a file away when no write
// can sit in it. Each case runs the rule through ESLint and asserts whether it returned listeners
// and what it reported (messageId, line, column).
import type { Rule } from 'eslint';
import { describe, expect, test } from 'vitest';
import { noReadThenWrite } from '../../../rules/no-read-then-write.js';
import { inComment, matchesInCode, maySendSql } from '../../../rules/no-read-then-write/write-candidates.js';
import { lintWithProbe } from './probe-lint.js';

interface Run {
  listeners: number;
  messages: { messageId: string | undefined; line: number; column: number }[];
}

function run(code: string): Run {
  const rule = noReadThenWrite as unknown as Rule.RuleModule;
  let listeners = 0;
  const probe: Rule.RuleModule = {
    meta: rule.meta!,
    create(context) {
      const found = rule.create(context);
      listeners = Object.keys(found).length;
      return found;
    },
  };
  const messages = lintWithProbe(code, probe, 'src/service.ts');
  return { listeners, messages: messages.map((m) => ({ messageId: m.messageId, line: m.line, column: m.column })) };
}

const lines = (...l: string[]): string => l.join('\n');

describe('no-read-then-write pre-check', () => {
  test('a write method named only in a comment: no listeners, no finding', () => {
    const code = lines(
      "import { PrismaClient } from '@prisma/client';",
      'const prisma = new PrismaClient();',
      'export async function credit(id: string) {',
      '  const wallet = await prisma.wallet.findUnique({ where: { id } });',
      '  // later: prisma.wallet.update({ data: { credits: wallet.credits + 1 } })',
      '  return wallet;',
      '}',
    );
    expect(run(code)).toEqual({ listeners: 0, messages: [] });
  });

  test('the same write in code is found', () => {
    const code = lines(
      "import { PrismaClient } from '@prisma/client';",
      'const prisma = new PrismaClient();',
      'export async function credit(id: string) {',
      '  const wallet = await prisma.wallet.findUnique({ where: { id } });',
      '  await prisma.wallet.update({ where: { id }, data: { credits: wallet.credits + 1 } });',
      '}',
    );
    expect(run(code).messages).toEqual([{ messageId: 'prisma', line: 5, column: 23 }]);
  });

  test('a write method split from its object by a comment is still a write', () => {
    const code = lines(
      "import { DataSource } from 'typeorm';",
      'export async function bump(repo, id: string) {',
      '  const order = await repo.findOneBy({ id });',
      '  order.count += 1;',
      '  await repo./* persist */save(order);',
      '}',
    );
    expect(run(code).messages).toEqual([{ messageId: 'typeorm', line: 5, column: 27 }]);
  });

  test('a project import with a comment in its gap still lets a loader helper be the read', () => {
    const code = lines(
      "import { getCounter } from /* the store */ './store';",
      'export async function bump(id: string) {',
      '  const counter = await getCounter(id);',
      '  counter.hits += 1;',
      '  await counter.save();',
      '}',
    );
    expect(run(code).messages).toEqual([{ messageId: 'sequelize', line: 5, column: 17 }]);
  });

  test('`update` in a string of a file that sends no SQL: no listeners', () => {
    const code = lines(
      "import { PrismaClient } from '@prisma/client';",
      'const prisma = new PrismaClient();',
      'export async function announce(bus, id: string) {',
      '  const wallet = await prisma.wallet.findUnique({ where: { id } });',
      "  bus.emit('update', { credits: wallet.credits + 1 });",
      '}',
    );
    expect(run(code)).toEqual({ listeners: 0, messages: [] });
  });

  test('SQL UPDATE kept in a constant and sent by a call is still a write', () => {
    const code = lines(
      "import { Pool } from 'pg';",
      'const pool = new Pool();',
      "const SET_BALANCE = 'UPDATE accounts SET balance = $1 WHERE id = $2';",
      'export async function withdraw(id: string, amount: number) {',
      "  const { rows } = await pool.query('SELECT balance FROM accounts WHERE id = $1', [id]);",
      '  await pool.query(SET_BALANCE, [rows[0].balance - amount, id]);',
      '}',
    );
    // Reported where the SQL assigns the value (`balance = $1`, in the constant).
    expect(run(code).messages).toEqual([{ messageId: 'sql', line: 3, column: 42 }]);
  });
});

describe('raw-text answers', () => {
  const comments = [{ type: 'Block', range: [10, 20] as [number, number] }];

  test('inComment: inside a comment, not before or after it', () => {
    expect(inComment(comments, 9)).toBe(false);
    expect(inComment(comments, 10)).toBe(true);
    expect(inComment(comments, 19)).toBe(true);
    expect(inComment(comments, 20)).toBe(false);
    expect(inComment([], 5)).toBe(false);
  });

  test('matchesInCode: a word counts where it does not start in a comment', () => {
    const text = 'a /* save */ b; save();';
    const at = [{ type: 'Block', range: [2, 12] as [number, number] }];
    expect(matchesInCode(/save/g, text, at)).toBe(true);
    expect(matchesInCode(/save/g, 'a /* save */ b;', at)).toBe(false);
    expect(matchesInCode(/save/g, 'a /* save */ b;', [])).toBe(true);
  });

  test('a run of commented-out lines after a bracket is scanned without backtracking through it', () => {
    const text = `const plugins = [\n${'        //     //     extensions: [\n'.repeat(40)}];\n`;
    expect(maySendSql(text)).toBe(false);
  });

  test('maySendSql: SQL calls, tags, factory-made tags and names the text does not spell', () => {
    expect(maySendSql('pool.query(text)')).toBe(true);
    expect(maySendSql("db['execute'](q)")).toBe(true);
    expect(maySendSql('await sql`UPDATE t SET n = ${n}`')).toBe(true);
    expect(maySendSql("import postgres from 'postgres'; const db = postgres(); db`UPDATE t`")).toBe(true);
    expect(maySendSql("repo['\\x73ave'](doc)")).toBe(true);
    expect(maySendSql('repo.sa\\u0076e(doc)')).toBe(true);
    expect(maySendSql("bus.emit('update', payload); req.queryString; mysql.connect()")).toBe(false);
    expect(maySendSql('const note = `updated ${n}`;')).toBe(false);
  });
});
