// no-unguarded-schedule on a timer walking a collection of the instance that holds rows read from a
// shared store: the class loads its entries at start (`const rows = await db.reminder.findMany();
// for (const row of rows) this.enqueue(row)`) and a timer runs the due ones, deleting their rows. That
// is work on shared rows at every replica, not a flush of what this process gathered. The timer's
// work is followed whether handed over as `this.runDue.bind(this)` (then `.unref()`) or called as
// `this.closeDue.call(this)`. A collection filled from this process's own events stays its own.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'desk' } };

const reminders = (fill: string[]) =>
  lines(
    'export class ReminderQueue {',
    '  private entries: Reminder[] = [];',
    '  private timer: NodeJS.Timeout | null = null;',
    '',
    '  async init(): Promise<void> {',
    ...fill,
    '    this.timer = setInterval(this.runDue.bind(this), 5_000).unref();',
    '  }',
    '',
    '  enqueue(row: Reminder): void {',
    '    this.entries.push(row);',
    '  }',
    '',
    '  async runDue(): Promise<void> {',
    '    for (const entry of this.entries) {',
    '      if (entry.at.getTime() > Date.now()) break;',
    '      await this.db.reminder.delete({ where: { id: entry.id } });',
    '    }',
    '  }',
    '}',
  );
const loadedAtStart = ['    const rows = await this.db.reminder.findMany();', '    for (const row of rows) this.enqueue(row);'];

const raffles = (fill: string, closing: string) =>
  lines(
    'class RaffleBoard {',
    '  constructor(store) {',
    '    this.store = store;',
    '    this.raffles = [];',
    '  }',
    '',
    '  async start() {',
    fill,
    '    setInterval(() => {',
    '      if (this.ready) this.closeDue.call(this);',
    '    }, 15_000);',
    '  }',
    '',
    '  closeDue() {',
    '    this.raffles.forEach(async (raffle) => {',
    '      if (raffle.endsAt > Date.now()) return;',
    `      ${closing}`,
    '    });',
    '  }',
    '}',
  );
const fetched = '    const saved = await this.store.fetchOpenRaffles();\n    saved.forEach((raffle) => this.raffles.push(raffle));';

ruleTester.run('no-unguarded-schedule (entries loaded from a shared store)', noUnguardedSchedule, {
  valid: [
    // Filled from this process's own calls (nothing read at start): a flush of its own entries.
    { settings, code: reminders(['    await this.db.$connect();']) },
    // The method run through `.call(this)` only drops entries from memory.
    { settings, code: raffles(fetched, 'this.raffles = this.raffles.filter((r) => r !== raffle);') },
  ],
  invalid: [
    guardedReport(settings, reminders(loadedAtStart), {
      line: 8,
      column: 30,
      guard: "    if (!(await claimPeriod('desk:run-due', 5_000))) return;",
      after: 15,
      importAfter: 0,
    }),
    {
      settings,
      code: raffles(fetched, 'await this.store.deleteRaffle(raffle.id);'),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 10,
          column: 17,
          suggestions: [
            {
              messageId: 'addClaimPeriod',
              output: lines(
                "import { claimPeriod } from 'replica-guard';",
                raffles(fetched, 'await this.store.deleteRaffle(raffle.id);').replace(
                  'setInterval(() => {',
                  "setInterval(async () => {\n      if (!(await claimPeriod('desk:file-10', 15_000))) return;",
                ),
              ),
            },
          ],
        },
      ],
    },
  ],
});
