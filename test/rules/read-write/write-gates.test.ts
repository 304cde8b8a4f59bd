// The cheap checks that let no-read-then-write skip work: a file without a write (a write method
// called, SQL UPDATE in a string, a save hook) gets no walk, and a project helper called after the
// file's last write is not followed into its module (its read could reach no write).
import { parseForESLint } from '@typescript-eslint/parser';
import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, test } from 'vitest';
import { mayWriteAfter } from '../../../rules/no-read-then-write/helper-reads.js';
import {
  callsWriteInCode,
  mentionsReadAndWrite,
  mentionsRedis,
  mentionsSaveHook,
  mentionsWriteWord,
  mentionsWriteWordOrRedis,
  writeCallOffsets,
  writeWordOrRedisIn,
} from '../../../rules/no-read-then-write/mentions.js';

/** The file's calls of `name`, with parents set. */
function callsOf(text: string, name: string): TSESTree.CallExpression[] {
  const { ast, visitorKeys } = parseForESLint(text, { range: true, loc: true });
  const calls: TSESTree.CallExpression[] = [];
  const visit = (node: TSESTree.Node, parent: TSESTree.Node | undefined): void => {
    (node as { parent?: TSESTree.Node }).parent = parent;
    if (node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === name) calls.push(node);
    for (const key of visitorKeys[node.type] ?? []) {
      const child = (node as unknown as Record<string, unknown>)[key];
      for (const item of Array.isArray(child) ? child : [child]) {
        if (item && typeof (item as TSESTree.Node).type === 'string') visit(item as TSESTree.Node, node);
      }
    }
  };
  visit(ast as TSESTree.Node, undefined);
  return calls;
}

describe('where a file names its writes', () => {
  test('a write method after a dot or in brackets, also with a comment in between', () => {
    const text = "a.save();\nb?.update(x);\nc['upsert'](y);\nd. /* why */ findOneAndUpdate();\ne.\n// later\n  replaceOne();\n";
    expect(writeCallOffsets(text)).toEqual([1, 12, 25, 41, 74]);
    expect(callsWriteInCode(writeCallOffsets(text), [])).toBe(true);
    // The call that starts in a comment (`// d.save()`) is not in the code.
    expect(callsWriteInCode(writeCallOffsets('// d.save()\nx();'), [{ type: 'Line', range: [0, 11] }])).toBe(false);
  });

  test('names that only contain a write word, and Map.set, are no write', () => {
    const code = 'const lastUpdated = row.updatedAt;\ncache.set(key, lastUpdated);\nonUpdate();\n';
    expect(writeCallOffsets(code)).toEqual([]);
    expect(mentionsSaveHook(code)).toBe(false);
    expect(mentionsSaveHook('@BeforeUpdate()\nstatic touch(doc) {}')).toBe(true);
  });
});

describe('the raw-text gate before the comment-free text is built', () => {
  test('passes every form of write a file can hold: any-case SQL, brackets, save hooks', () => {
    for (const text of [
      'pool.query(`uPdAtE accounts SET balance = $1`, [next]);',
      "repo['save'](entity);",
      'Model.findOneAndUpdate({ id }, { $set: { n } });',
      '@BeforeSave()\nstatic touch(doc) {}',
      'Doc.addHook("beforeUpsert", (doc) => {});',
      'coll.replaceOne({ id }, doc);',
    ]) {
      expect(mentionsWriteWord(text), text).toBe(true);
    }
  });

  test('the first test, write words and Redis in one scan, answers as the two tests did', () => {
    for (const text of [
      'const r = new Redis();',
      "import { createClient } from 'valkey';",
      'await repo.save(row);',
      'UPDATE counters SET n = n + 1',
      "import { MikroORM } from '@mikro-orm/core';\nawait em.flush();",
      'await em.flush();',
      'const m = new Map(); m.get(k); m.set(k, 1);',
      '// nothing here',
    ]) {
      expect(mentionsWriteWordOrRedis(text), text).toBe(mentionsWriteWord(text) || mentionsRedis(text));
    }
  });

  test('the first scan also tells which it met first, and the questions left are answered as the whole-text tests do', () => {
    for (const text of [
      'const r = new Redis();',
      'const r = new Redis(); await repo.save(row);',
      'await repo.save(row); const r = new Redis();',
      'await repo.save(row);',
      'redisUpdate(); valkey',
      "import { createClient } from 'valkey';\nawait client.set(k, v);",
      "import { MikroORM } from '@mikro-orm/core';\nawait em.flush();",
      "import { MikroORM } from '@mikro-orm/core';\nconst r = new Redis(); await em.flush();",
      'await em.flush();',
      'const m = new Map(); m.get(k); m.set(k, 1);',
      '// nothing here',
    ]) {
      const first = writeWordOrRedisIn(text);
      expect(first !== undefined, text).toBe(mentionsWriteWordOrRedis(text));
      if (!first) continue;
      expect(first.writeWord, text).toBe(mentionsWriteWord(text));
      expect(first.redis(), text).toBe(mentionsRedis(text));
    }
  });

  test('turns away a file only when the comment-free check would too', () => {
    const text = '// no writes here\nexport const total = (rows) => rows.reduce((sum, row) => sum + row.n, 0);\n';
    expect(mentionsWriteWord(text)).toBe(false);
    expect(mentionsReadAndWrite(text)).toBe(false);
  });
});

describe('mayWriteAfter', () => {
  const text = [
    'async function f(id) {',
    '  const a = await load(id);',
    '  a.n += 1;',
    '  await repo.save(a);',
    '  const b = await load(id);',
    '  await other.save(c = await load(id));',
    '  const d = await load(id);',
    '}',
  ].join('\n');
  const [before, after, inside, last] = callsOf(text, 'load');
  const offsets = writeCallOffsets(text);

  test('a helper called before a write, or inside a write call, is followed', () => {
    expect(mayWriteAfter(offsets, before!)).toBe(true);
    expect(mayWriteAfter(offsets, after!)).toBe(true);
    expect(mayWriteAfter(offsets, inside!)).toBe(true);
  });

  test('a helper called after the last write is not', () => {
    expect(mayWriteAfter(offsets, last!)).toBe(false);
    expect(mayWriteAfter([], before!)).toBe(false);
  });
});
