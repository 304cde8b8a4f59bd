// The engine's own guarantees, below the CLI: literal text kept byte-identical (or the file fails),
// markers anchored above their statement, lease keys made unique by class, module path, order.
import { parse } from '@typescript-eslint/parser';
import type { TSESTree } from '@typescript-eslint/utils';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { Engine } from '../../codemods/engine/engine.js';
import { existingKeys, uniqueKeys, type KeyInFile } from '../../codemods/engine/lease-keys.js';
import { assertLiteralsKept, LiteralChangedError, literalTokens } from '../../codemods/engine/literal-invariant.js';
import { defineTransform } from '../../codemods/engine/transform.js';
import noUnguardedSchedule from '../../rules/no-unguarded-schedule.js';

const scratch = mkdtempSync(join(tmpdir(), 'replica-codemod-invariants-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const program = (text: string): TSESTree.Program => parse(text, { range: true, tokens: true, loc: true, jsx: true }) as TSESTree.Program;

describe('assertLiteralsKept', () => {
  const text = "const sql = 'SELECT 1';\nconst note = `a\nb`;\n";
  const before = literalTokens(program(text));
  const check = (edits: Array<{ start: number; end: number; text: string; literal?: true }>): void => {
    let after = text;
    for (const edit of [...edits].sort((a, b) => b.start - a.start)) after = after.slice(0, edit.start) + edit.text + after.slice(edit.end);
    assertLiteralsKept(text, before, edits, literalTokens(program(after)));
  };

  test('an insertion inside a template fails with the line', () => {
    const inside = text.indexOf('\nb`') + 1;
    expect(() => check([{ start: inside, end: inside, text: '// marker\n' }])).toThrow(LiteralChangedError);
    expect(() => check([{ start: inside, end: inside, text: '// marker\n' }])).toThrow(/line 2/);
  });

  test('an edit that reaches into a string fails; declared as a literal rewrite it passes', () => {
    const at = text.indexOf('1');
    expect(() => check([{ start: at, end: at + 1, text: '2' }])).toThrow(LiteralChangedError);
    expect(() => check([{ start: at, end: at + 1, text: '2', literal: true }])).not.toThrow();
  });

  test('code around literals may change, and a literal may be removed whole', () => {
    expect(() => check([{ start: 0, end: 5, text: 'let' }])).not.toThrow();
    const start = text.indexOf("'SELECT");
    expect(() => check([{ start, end: start + "'SELECT 1'".length, text: 'null' }])).not.toThrow();
  });
});

describe('a transform that writes inside a literal fails the file, nothing written', () => {
  test('the engine refuses the edit and reports why', async () => {
    const dir = join(scratch, 'literal');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'svc', type: 'module' }));
    const source = "setInterval(async () => {\n  await send('hello');\n}, 1000);\n";
    writeFileSync(join(dir, 'jobs.ts'), source);
    const intoString = defineTransform({
      name: 'into-string',
      description: 'writes inside a string',
      rule: noUnguardedSchedule,
      prefilter: ['setInterval'],
      apply(file, findings) {
        const at = file.text.indexOf('hello');
        return { edits: findings.length > 0 ? [{ start: at, end: at, text: 'X' }] : [], imports: [], manual: [] };
      },
    });
    const report = await new Engine([intoString]).run({ cwd: dir, force: true });
    expect(report.errors).toEqual([{ file: 'jobs.ts', message: expect.stringContaining('would change literal text at line 2') as string }]);
    expect(readFileSync(join(dir, 'jobs.ts'), 'utf8')).toBe(source);
  });
});

describe('uniqueKeys', () => {
  const key = (k: string, file: string, extra: Partial<KeyInFile> = {}): KeyInFile => ({ key: k, file, start: 0, end: 0, ...extra });

  test('keys that do not repeat stay as they are', () => {
    expect(uniqueKeys([key('svc:a', 'a.ts'), key('svc:b', 'b.ts')], new Set())).toEqual(['svc:a', 'svc:b']);
  });

  test('repeats are qualified by class first, then by module path', () => {
    const written = [
      key('svc:run', 'src/a.ts', { className: 'digest-job', functionName: 'run' }),
      key('svc:run', 'src/b.ts', { className: 'report-job', functionName: 'run' }),
      key('svc:sweep', 'src/x/jobs.ts'),
      key('svc:sweep', 'src/y/jobs.mts'),
    ];
    expect(uniqueKeys(written, new Set())).toEqual([
      'svc:digest-job.run',
      'svc:report-job.run',
      'svc:src/x/jobs:sweep',
      'svc:src/y/jobs:sweep',
    ]);
  });

  test('a key the repository already uses is qualified; two jobs left equal are numbered in file order', () => {
    expect(uniqueKeys([key('svc:sweep', 'jobs.ts')], new Set(['svc:sweep']))).toEqual(['svc:jobs:sweep']);
    expect(uniqueKeys([key('svc:cron', 'cron.ts'), key('svc:cron', 'cron.ts')], new Set())).toEqual(['svc:cron:cron', 'svc:cron:cron-2']);
  });

  test('existingKeys reads the literal first argument of each lease-taking guard', () => {
    const text =
      "await claimPeriod('svc:a', 1);\nrunExclusive(\"svc:b\", 1, f);\nrunOnce(`svc:${x}`, 1, f);\nclaimOnce('svc:c', 1);\nperReplica(f);";
    expect(existingKeys(text)).toEqual(['svc:a', 'svc:b', 'svc:c']);
  });
});
