// no-unguarded-schedule on nest-schedule, NestJS's schedule module before `@nestjs/schedule`: a class
// extending `NestSchedule` runs its `@Cron` / `@Interval` / `@Timeout` methods in every process that
// builds the module. A job handed to a locker the replicas share — the class extends
// `NestDistributedSchedule` (its `tryLock` decides each run), or the method carries `@UseLocker(…)` —
// is coordinated by the scheduler itself.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'ledger' } };

const jobs = (base: string, ...method: string[]) =>
  lines(
    "import { Injectable } from '@nestjs/common';",
    `import { Cron, Interval, NestSchedule, NestDistributedSchedule, UseLocker } from 'nest-schedule';`,
    "import { RedisLocker } from './redis-locker';",
    '@Injectable()',
    `export class ReceiptJobs extends ${base} {`,
    '  constructor(private readonly receipts: ReceiptService) {',
    '    super();',
    '  }',
    ...method,
    '}',
  );

const nightly = ["  @Cron('15 2 * * *')", '  async mailReceipts() {', '    await this.receipts.mailPending();', '  }'];
const everyMinute = ['  @Interval(60_000)', '  async releaseHeldSeats() {', '    await this.receipts.releaseHeld();', '  }'];

ruleTester.run('no-unguarded-schedule (nest-schedule decorators)', noUnguardedSchedule, {
  valid: [
    // The class hands every run to its `tryLock`: coordinated by the scheduler.
    { settings, code: jobs('NestDistributedSchedule', '  async tryLock(method: string) { return this.locks.take(method); }', ...nightly) },
    // A locker on the method.
    { settings, code: jobs('NestSchedule', '  @UseLocker(RedisLocker)', ...nightly) },
    { settings, code: jobs('NestSchedule', '  @UseLocker(RedisLocker)', ...everyMinute) },
    // Decorators and a base class of a project module are not nest-schedule's.
    {
      settings,
      code: lines(
        "import { Cron, NestDistributedSchedule } from './local-scheduling';",
        'export class ReceiptJobs extends NestDistributedSchedule {',
        ...nightly,
        '}',
      ),
    },
  ],
  invalid: [
    guardedReport(settings, jobs('NestSchedule', ...nightly), {
      line: 9,
      column: 3,
      guard: "    if (!(await claimPeriod('ledger:mail-receipts', { cron: '15 2 * * *' }))) return;",
      after: 10,
      importAfter: 3,
    }),
    guardedReport(settings, jobs('NestSchedule', ...everyMinute), {
      line: 9,
      column: 3,
      guard: "    if (!(await claimPeriod('ledger:release-held-seats', 60_000))) return;",
      after: 10,
      importAfter: 3,
    }),
    // `UseLocker` of another module is not nest-schedule's locker.
    guardedReport(
      settings,
      lines(
        "import { Cron, NestSchedule } from 'nest-schedule';",
        "import { UseLocker } from './decorators';",
        'export class ReceiptJobs extends NestSchedule {',
        '  @UseLocker(RedisLocker)',
        ...nightly,
        '}',
      ),
      {
        line: 5,
        column: 3,
        guard: "    if (!(await claimPeriod('ledger:mail-receipts', { cron: '15 2 * * *' }))) return;",
        after: 6,
        importAfter: 2,
      },
    ),
  ],
});
