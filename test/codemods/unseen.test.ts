// The must-show, held in CI: on service files written for this measure and never used to build the
// transforms (test/codemods/unseen/<family>/), each family's codemod removes at least its share of
// the findings, marks every other one manual with a reason, and leaves a tree a team can merge —
// every output parses, no literal text changed (SQL rewritten on purpose counted apart), no two
// jobs share a lease key, a second run changes nothing. `npm run measure:codemod` prints the same.
import tsParser from '@typescript-eslint/parser';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { changedLiterals, FAMILIES, measureTree, type FamilyResult } from '../../scripts/measure-codemod/measure.js';

const root = join(dirname(fileURLToPath(import.meta.url)), 'unseen');

describe.each(FAMILIES)('$name', (family) => {
  let result: FamilyResult;

  test(`removes at least ${family.threshold * 100} % of the findings`, { timeout: 120_000 }, async () => {
    result = await measureTree(join(root, family.name), family);
    expect(result.errors).toEqual([]);
    expect(result.files).toBeGreaterThanOrEqual(15);
    expect(result.before).toBeGreaterThanOrEqual(14);
    expect(result.removed / result.before).toBeGreaterThanOrEqual(family.threshold);
  });

  test('every finding left has a manual marker with a reason', () => {
    expect(result.unexplained).toEqual([]);
    expect(result.manualWithoutReason).toBe(0);
    expect(result.removed + result.manualWithReason).toBe(result.before);
  });

  test('outputs parse, no literal changed, no shared lease key, a second run changes nothing', () => {
    expect(result.unparsable).toEqual([]);
    expect(result.literalsChanged).toEqual([]);
    if (!family.rewritesSql) expect(result.sqlRewritten).toBe(0);
    expect(result.sharedKeys).toEqual([]);
    expect(result.secondRunChanged).toEqual([]);
  });
});

describe('the literal check can fail', () => {
  const tokens = (text: string) =>
    (
      tsParser.parse(text, { range: true, loc: true, tokens: true }) as unknown as {
        tokens: Array<{ type: string; value: string; loc: { start: { line: number } } }>;
      }
    ).tokens.map((t) => ({ type: t.type, value: t.value, line: t.loc.start.line }));

  test('a literal edited inside is reported', () => {
    const before = tokens("send('orders.created', payload);\n");
    const after = tokens("send('orders.created.v2', payload);\n");
    expect(changedLiterals(before, after)).toEqual([{ line: 1, before: "'orders.created'", after: "'orders.created.v2'" }]);
  });

  test('a literal removed whole, or one newly written, is not', () => {
    const before = tokens("await pool.query('SELECT pg_try_advisory_lock(1)');\nawait work();\n");
    const after = tokens("await runExclusive('svc:job', 60_000, async () => {\nawait work();\n});\n");
    expect(changedLiterals(before, after)).toEqual([]);
  });
});
