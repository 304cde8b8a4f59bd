// The engine's indexed look-ups (offsets through edits, lines, the node at an offset, whether an
// offset is inside a literal) answer exactly what a scan from the top answered: they exist so a
// big file with thousands of findings costs linear time, not to change any answer.
import { describe, expect, test } from 'vitest';
import { insideLiteral, literalTokens, markerAnchor } from '../../codemods/engine/literal-invariant.js';
import { nodeAt } from '../../analysis/ast/node-at.js';
import { runDetection } from '../../codemods/engine/run-detection.js';
import { lineAt, mapOffset } from '../../codemods/engine/text-edits.js';
import { insertedSpans, uniqueKeys, writtenKeys, type KeyInFile } from '../../codemods/engine/lease-keys.js';
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

  test('uniqueKeys, counting the holders of each key, answers what scanning every other key answered', () => {
    // Repeats of every kind: the same job in one class, in two classes, in two files, anonymous
    // jobs, keys the repository holds, and keys that collide with a numbered one (`sweep-2`).
    // The expected lists are what the scanning version gave for these keys.
    const jobs = ['sweep', 'sweep-2', 'run', 'cron', 'jobs:sweep'];
    const classes = [undefined, 'digest-job', 'report-job'];
    const written: KeyInFile[] = [];
    for (let i = 0; i < 24; i += 1) {
      const className = classes[i % 3];
      written.push({
        key: `svc:${jobs[(i * 7) % jobs.length]!}`,
        file: ['jobs.ts', 'src/a/jobs.ts', 'src/b/worker.mts'][(i * 5) % 3]!,
        start: i,
        end: i + 1,
        ...(className ? { className, functionName: i % 4 === 0 ? 'run' : 'tick' } : {}),
      });
    }
    expect(uniqueKeys(written, new Set()).join(' ')).toBe(
      'svc:jobs:sweep svc:digest-job.tick.run svc:src/a/jobs:jobs:sweep svc:jobs:sweep-2 svc:digest-job.run.cron svc:report-job.tick.sweep svc:jobs:run svc:src/b/worker:jobs:sweep svc:report-job.run.sweep-2 svc:cron svc:digest-job.tick.sweep svc:report-job.tick.run svc:jobs:sweep-3 svc:digest-job.tick.sweep-2 svc:report-job.tick.cron svc:jobs:sweep-4 svc:digest-job.run svc:src/a/jobs:jobs:sweep-2 svc:jobs:sweep-2-2 svc:digest-job.tick.cron svc:report-job.run.sweep svc:jobs:run-2 svc:src/b/worker:jobs:sweep-2 svc:report-job.tick.sweep-2',
    );
    const existing = new Set(['svc:sweep', 'svc:run-2', 'svc:jobs:sweep', 'svc:digest-job.tick.cron']);
    expect(uniqueKeys(written, existing).join(' ')).toBe(
      'svc:jobs:sweep-3 svc:digest-job.tick.run svc:src/a/jobs:jobs:sweep svc:jobs:sweep-2 svc:digest-job.run.cron svc:report-job.tick.sweep svc:jobs:run svc:src/b/worker:jobs:sweep svc:report-job.run.sweep-2 svc:cron svc:digest-job.tick.sweep svc:report-job.tick.run svc:jobs:jobs:sweep svc:digest-job.tick.sweep-2 svc:report-job.tick.cron svc:jobs:sweep-4 svc:digest-job.run svc:src/a/jobs:jobs:sweep-2 svc:jobs:sweep-2-2 svc:src/b/worker:cron svc:report-job.run.sweep svc:jobs:run-2 svc:src/b/worker:jobs:sweep-2 svc:report-job.tick.sweep-2',
    );
  });

  test('writtenKeys walks only the subtrees that hold inserted text, and finds the same keys', () => {
    const inserted = "if (!(await claimPeriod('svc:sweep', 60_000))) return;\n  ";
    const at = SOURCE.indexOf('await this.db');
    const edits: TextEdit[] = [{ start: at, end: at, text: inserted }];
    const text = SOURCE.slice(0, at) + inserted + SOURCE.slice(at);
    const { ast } = runDetection('/project/jobs.ts', text, [], { packageType: 'module' });
    const keys = writtenKeys(ast, insertedSpans(edits), (offset) => offset);
    expect(keys).toEqual([
      {
        key: 'svc:sweep',
        start: at + inserted.indexOf("'svc"),
        end: at + inserted.indexOf(', 60_000'),
        className: 'jobs',
        functionName: 'sweep',
      },
    ]);
    // The literal already in the file is no inserted key: only a span decides.
    expect(writtenKeys(ast, [], (offset) => offset)).toEqual([]);
  });
});
