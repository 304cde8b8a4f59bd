// no-unguarded-schedule on work that hands jobs to a queue package: an enqueue with a job id is
// one job however many replicas enqueue it, so work that does only that stays quiet — but the job
// id covers the enqueue alone: the same sweep deleting the rows it queued (a Kysely `deleteFrom`)
// deletes them at every replica and is reported. An enqueue without a job id on a queue-named
// receiver (`this.exportQueue.add(name, data)`) is a job per replica: reported from a bare timer,
// while `add` on a `Set` of the same file stays in the process.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'studio' } };

/** A nightly sweep of archived drafts: each draft's files queued by `enqueue`, then `after`. */
const draftSweep = (enqueue: string, after: string[] = []) =>
  lines(
    "import { Interval } from '@nestjs/schedule';",
    "import { Queue } from 'bullmq';",
    'export class DraftSweeper {',
    '  constructor(private readonly db: Kysely<Db>, private readonly filesQueue: Queue) {}',
    "  @Interval('draft-sweep', 86_400_000)",
    '  async sweep() {',
    "    const drafts = await this.db.selectFrom('drafts').select(['id']).where('archivedAt', '<', new Date()).execute();",
    '    for (const draft of drafts) {',
    `      ${enqueue}`,
    '    }',
    ...after,
    '  }',
    '}',
  );
const withJobId = "await this.filesQueue.add('purge-files', { draftId: draft.id }, { jobId: `purge-files-${draft.id}` });";
const deleteDrafts = [
  '    if (drafts.length === 0) return;',
  "    await this.db.deleteFrom('drafts').where('id', 'in', drafts.map((d) => d.id)).execute();",
];

/** An export poller on a bare timer: `tick` runs each period. */
const exportPoller = (tick: string) =>
  lines(
    "import { Queue } from 'bullmq';",
    "const exportQueue = new Queue('exports');",
    'const pending = new Set<string>();',
    'setInterval(async () => {',
    `  ${tick}`,
    '}, 60_000);',
  );

ruleTester.run('no-unguarded-schedule: queue enqueues', noUnguardedSchedule, {
  valid: [
    { settings, code: draftSweep(withJobId) },
    { settings, code: exportPoller("await exportQueue.add('nightly-export', {}, { jobId: `export-${new Date().toDateString()}` });") },
    { settings, code: exportPoller("pending.add('nightly-export');") },
  ],
  invalid: [
    guardedReport(settings, draftSweep(withJobId, deleteDrafts), {
      line: 5,
      column: 3,
      guard: "    if (!(await claimPeriod('studio:sweep', 86_400_000))) return;",
      after: 6,
      importAfter: 2,
    }),
    guardedReport(settings, exportPoller("await exportQueue.add('nightly-export', { at: Date.now() });"), {
      line: 4,
      column: 13,
      guard: "  if (!(await claimPeriod('studio:file-4', 60_000))) return;",
      after: 4,
      importAfter: 1,
    }),
  ],
});
