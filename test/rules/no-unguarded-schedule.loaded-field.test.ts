// no-unguarded-schedule on a bare timer walking a field of its class: a buffer this process fills
// and empties (`this.pending = []`) is its own, flushed per replica; a field the class loads from a
// store (`this.due = await prisma.schedule.findMany(…)`) holds the shared schedule table, so running
// each due entry from the timer runs it on every replica.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { lines, suggested } from './schedule-suggestion.js';

const settings = { 'replica-guard': { service: 'reports' } };

/** A service whose `load()` fills `this.entries` with `fill`, and whose timer runs every due entry. */
const reportService = (fill: string) => [
  "import { prisma } from './prisma';",
  "import { runSchedule } from './runner';",
  'type Entry = { id: string; nextRunAt: Date };',
  'export class ReportService {',
  '  private entries: Entry[] = [];',
  '  async load(): Promise<void> {',
  `    this.entries = ${fill};`,
  '  }',
  '  start(): void {',
  '    setInterval(async () => {',
  '      for (const entry of this.entries) {',
  '        if (entry.nextRunAt.getTime() <= Date.now()) await runSchedule(entry);',
  '      }',
  '    }, 1_000);',
  '  }',
  '}',
];
const loaded = reportService('await prisma.schedule.findMany({ where: { active: true } })');

ruleTester.run('no-unguarded-schedule: a field loaded from a store is no buffer of this process', noUnguardedSchedule, {
  valid: [{ settings, code: lines(...reportService('[]')) }],
  invalid: [
    {
      settings,
      code: lines(...loaded),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 10,
          column: 17,
          suggestions: suggested(loaded, 1, 10, "      if (!(await claimPeriod('reports:file-10', 1_000))) return;"),
        },
      ],
    },
  ],
});
