import { describe, expect, test } from 'vitest';
import { Linter } from 'eslint';
import tsParser from '@typescript-eslint/parser';
import { forgetLastFile, lastFileCache, perFileMap } from '../../analysis/source/last-file-cache.js';
import plugin from '../../rules/index.js';

describe('lastFileCache', () => {
  test('computes once per key, and again after another key', () => {
    const calls: string[] = [];
    const lengthOf = lastFileCache((key: { name: string }) => {
      calls.push(key.name);
      return key.name.length;
    });
    const a = { name: 'a.ts' };
    const b = { name: 'bb.ts' };
    expect([lengthOf(a), lengthOf(a), lengthOf(b), lengthOf(b), lengthOf(a)]).toEqual([4, 4, 5, 5, 4]);
    expect(calls).toEqual(['a.ts', 'bb.ts', 'a.ts']);
  });

  test('one SourceCode object reused for several files (as oxlint does) is told apart by its ast', () => {
    const calls: string[] = [];
    const textOf = lastFileCache((key: { ast: object; text: string }) => {
      calls.push(key.text);
      return key.text.toUpperCase();
    });
    const shared = { ast: {}, text: 'first' };
    expect(textOf(shared)).toBe('FIRST');
    expect(textOf(shared)).toBe('FIRST');
    Object.assign(shared, { ast: {}, text: 'second' });
    expect(textOf(shared)).toBe('SECOND');
    expect(calls).toEqual(['first', 'second']);
  });

  test('forgetLastFile empties every slot: the same file is computed afresh, and nothing of it is held', () => {
    const calls: string[] = [];
    const lengthOf = lastFileCache((key: { name: string }) => {
      calls.push(key.name);
      return key.name.length;
    });
    const mapFor = perFileMap<string, number>();
    const file = { name: 'a.ts' };
    lengthOf(file);
    mapFor(file).set('x', 1);
    forgetLastFile();
    expect(lengthOf(file)).toBe(4);
    expect(calls).toEqual(['a.ts', 'a.ts']);
    expect(mapFor(file).get('x')).toBeUndefined();
  });

  test('perFileMap gives one map per file', () => {
    const mapFor = perFileMap<string, number>();
    const first = {};
    mapFor(first).set('x', 1);
    expect(mapFor(first).get('x')).toBe(1);
    expect(mapFor({}).get('x')).toBeUndefined();
  });
});

describe('per-file answers across files linted in a row', () => {
  const linter = new Linter({ configType: 'flat' });
  const config = [
    {
      files: ['**/*.ts'],
      languageOptions: { parser: tsParser as never },
      plugins: { 'replica-guard': plugin as never },
      rules: { 'replica-guard/no-in-app-migrations': 'error' as const, 'replica-guard/no-unguarded-schedule': 'error' as const },
    },
  ];
  const migrating = "import { DataSource } from 'typeorm';\nexport const db = new DataSource({ type: 'postgres', synchronize: true });";
  const scheduling = "import { sendDigest } from './mail';\nsetInterval(() => sendDigest(), 60_000);";
  const ruleIds = (text: string, filename: string): string[] => linter.verify(text, config, { filename }).map((m) => m.ruleId ?? 'fatal');

  test('a migration file, then an app file with the same text, then different text', () => {
    expect(ruleIds(migrating, 'src/migrations/001-init.ts')).toEqual([]);
    expect(ruleIds(migrating, 'src/db.ts')).toEqual(['replica-guard/no-in-app-migrations']);
    expect(ruleIds(scheduling, 'src/db.ts')).toEqual(['replica-guard/no-unguarded-schedule']);
    expect(ruleIds(migrating, 'src/migrations/001-init.ts')).toEqual([]);
  });
});
