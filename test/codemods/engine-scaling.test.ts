// The engine's indexed look-ups (offsets through edits, lines, the node at an offset, whether an
// offset is inside a literal) answer exactly what a scan from the top answered: they exist so a
// big file with thousands of findings costs linear time, not to change any answer.
import { describe, expect, test } from 'vitest';
import { insideLiteral, literalTokens, markerAnchor } from '../../codemods/engine/literal-invariant.js';
import { nodeAt } from '../../analysis/ast/node-at.js';
import { runDetection } from '../../codemods/engine/run-detection.js';
import { lineAt, mapOffset } from '../../codemods/engine/text-edits.js';
import type { TextEdit } from '../../codemods/engine/transform.js';

// The definitions the indexes replace, written as scans.
const scanMapOffset = (edits: readonly TextEdit[], offset: number): number =>
  edits.reduce(
    (at, e) => (e.end <= offset && !(e.start === offset && e.end === offset) ? at + e.text.length - (e.end - e.start) : at),
    offset,
  );
const scanLineAt = (text: string, offset: number): number => text.slice(0, offset).split('\n').length;

const SOURCE = `import { Cron } from '@nestjs/schedule';
const list = [1, , 3, \`a\${'b'}c\`];
@Injectable()
export class Jobs {
  @Cron('0 * * * *')
  async sweep(): Promise<void> {
    await this.db.query("select pg_try_advisory_lock(1)");
  }
}
setInterval(() => { void fetch('https://example.test'); }, 1000);
`;

describe('indexed look-ups', () => {
  test('mapOffset agrees with a scan of the edits, insertions at the offset staying after it', () => {
    const edits: TextEdit[] = [
      { start: 40, end: 40, text: 'xyz' },
      { start: 2, end: 5, text: '' },
      { start: 10, end: 12, text: 'long text' },
      { start: 40, end: 40, text: 'q' },
      { start: 60, end: 70, text: 'a' },
    ];
    const mapped = Array.from({ length: 90 }, (_, offset) => mapOffset(edits, offset));
    expect(mapped).toEqual(Array.from({ length: 90 }, (_, offset) => scanMapOffset(edits, offset)));
    expect(mapOffset(edits, 40)).toBe(40 - 3 + 7);
    expect(mapOffset(edits, 41)).toBe(41 - 3 + 7 + 4);
    expect(mapOffset([], 7)).toBe(7);
  });

  test('mapOffset sees edits added to a list it was already asked about', () => {
    const edits: TextEdit[] = [{ start: 0, end: 0, text: 'ab' }];
    expect(mapOffset(edits, 5)).toBe(7);
    edits.push({ start: 1, end: 1, text: 'c' });
    expect(mapOffset(edits, 5)).toBe(8);
  });

  test('lineAt agrees with counting newlines, across texts', () => {
    for (const text of [SOURCE, 'a\r\nb\n\nc', '']) {
      for (let offset = 0; offset <= text.length + 1; offset += 1) expect(lineAt(text, offset)).toBe(scanLineAt(text, offset));
    }
  });

  test("nodeAt is ESLint's getNodeByRangeIndex at every offset, and markers anchor as before", () => {
    const { sourceCode } = runDetection('/project/jobs.ts', SOURCE, [], { packageType: 'module' });
    for (let offset = -1; offset <= SOURCE.length + 1; offset += 1) {
      expect(nodeAt(sourceCode, offset)).toBe(sourceCode.getNodeByRangeIndex(offset));
    }
    const inMethod = SOURCE.indexOf('pg_try');
    expect(markerAnchor(sourceCode, inMethod)).toBe(SOURCE.indexOf('await this.db'));
    expect(markerAnchor(sourceCode, SOURCE.indexOf('async sweep'))).toBe(SOURCE.indexOf("@Cron('0"));
  });

  test('insideLiteral agrees with a scan of the tokens (strictly inside)', () => {
    const { ast } = runDetection('/project/jobs.ts', SOURCE, [], { packageType: 'module' });
    const tokens = literalTokens(ast);
    expect(tokens.length).toBeGreaterThan(4);
    for (let offset = 0; offset <= SOURCE.length; offset += 1) {
      expect(insideLiteral(tokens, offset)).toBe(tokens.some((t) => offset > t.start && offset < t.end));
    }
  });
});
