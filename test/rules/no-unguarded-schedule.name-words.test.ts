// no-unguarded-schedule on work out of reach (an import the linted file alone cannot follow),
// judged by the words of the name it calls: a lock taken through a prefixed verb
// (`executeWithLock`) keeps the job quiet; a cache cleared (`clearCache`) and a liveness beacon
// (`stayAlive`) are this process's; a second verb joined by `and` (`findAndSendReminders`) is
// what the work does too, and a shared one is reported.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'ops' } };

/** A NestJS service whose `@Cron` method is `body` (lines, indented four spaces). */
const cronService = (...body: string[]) =>
  lines(
    "import { Injectable } from '@nestjs/common';",
    "import { Cron } from '@nestjs/schedule';",
    "import { LockService } from './lock.service';",
    "import { BillingService } from './billing.service';",
    '@Injectable()',
    'export class NightlyJobs {',
    '  constructor(private readonly lockService: LockService, private readonly billing: BillingService) {}',
    "  @Cron('0 3 * * *')",
    '  async nightly() {',
    ...body,
    '  }',
    '}',
  );

ruleTester.run('no-unguarded-schedule (work judged by its name words)', noUnguardedSchedule, {
  valid: [
    // the lock is taken by a prefixed verb: the work runs inside it
    { settings, code: cronService("    await this.lockService.executeWithLock('nightly', () => this.billing.chargeOverdue());") },
    { settings, code: cronService("    await this.lockService.doWithLock('nightly', () => this.billing.chargeOverdue());") },
    // a lock per item, taken inside the loop over the rows due
    {
      settings,
      code: cronService(
        '    for (const member of await this.billing.dueMembers()) {',
        '      await this.lockService.executeWithLock(`plan:${member.id}`, () => this.billing.applyPlan(member));',
        '    }',
      ),
    },
    // this process's cache, cleared
    {
      settings,
      code: lines(
        "import schedule from 'node-schedule';",
        "import ImageCache from './image-cache';",
        "schedule.scheduleJob('0 0 * * *', () => {",
        "  ImageCache.clearCache('avatars');",
        '});',
      ),
    },
    // joined verbs that write nothing shared
    { settings, code: lines("import { loadAndCacheRates } from './rates';", 'setInterval(() => loadAndCacheRates(), 60_000);') },
  ],
  invalid: [
    // a read, then a send the name joins with `and`
    guardedReport(
      settings,
      lines(
        "import { findAndSendReminders } from './job/send-reminder';",
        'setInterval(async () => {',
        '  findAndSendReminders();',
        '}, 5000);',
      ),
      { line: 2, column: 13, guard: "  if (!(await claimPeriod('ops:file-2', 5000))) return;", after: 2, importAfter: 1 },
    ),
    guardedReport(
      settings,
      lines(
        "import { checkAndNotifyOwners } from './owners';",
        "import { db } from './db';",
        'async function checkDue() {',
        '  const due = await db.devices.findAll({ where: { clock: 1 } });',
        '  for (const device of due) checkAndNotifyOwners(device);',
        '}',
        'setInterval(checkDue, 60_000);',
      ),
      { line: 7, column: 13, guard: "  if (!(await claimPeriod('ops:check-due', 60_000))) return;", after: 3, importAfter: 2 },
    ),
    // a prefixed verb that takes no lock: the work is not guarded
    guardedReport(settings, cronService('    await this.lockService.executeWithRetry(() => this.billing.chargeOverdue());'), {
      line: 8,
      column: 3,
      guard: "    if (!(await claimPeriod('ops:nightly', { cron: '0 3 * * *' }))) return;",
      after: 9,
      importAfter: 4,
    }),
  ],
});
