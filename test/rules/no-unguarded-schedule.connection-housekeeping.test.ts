// no-unguarded-schedule on a job that first tidies this process's own connections
// (`await this.db.pruneConnections()`, `closeIdleSockets()`) and then does its work: the
// housekeeping call names no work, so the job is judged by what else it does — reported when it
// writes shared rows, quiet when the tidy-up is all it does or the rest only reads.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'club' } };

/** A NestJS service whose `@Cron` method `accrue` runs `body` after tidying its connections. */
const nightly = (...body: string[]) =>
  lines(
    "import { Injectable } from '@nestjs/common';",
    "import { Cron } from '@nestjs/schedule';",
    "import { DbService } from '../db/db.service';",
    '@Injectable()',
    'export class LoyaltyService {',
    '  constructor(private readonly db: DbService) {}',
    "  @Cron('15 1 * * *', {",
    "    timeZone: 'Europe/Lisbon',",
    '  })',
    '  async accrue() {',
    '    await this.db.pruneConnections();',
    ...body.map((l) => `    ${l}`),
    '  }',
    '}',
  );

const CREDIT = [
  'const members = await this.db.member.findMany({ where: { active: true } });',
  'await this.db.pointEntry.createMany({ data: members.map((m) => ({ memberId: m.id, points: 10 })) });',
];

ruleTester.run('no-unguarded-schedule: connection housekeeping beside the work', noUnguardedSchedule, {
  valid: [
    // the tidy-up is all the job does: this process's own connections
    { settings, code: nightly() },
    // the rest only reads and logs
    { settings, code: nightly('const count = await this.db.member.count();', 'console.log(count);') },
    // a timer handed the housekeeping function itself
    {
      settings,
      code: lines("import { pool } from './pool';", 'setInterval(() => pool.closeIdleSockets(), 60_000);'),
    },
  ],
  invalid: [
    // the batch credits every member at every replica; the tidy-up before it does not make it per replica
    guardedReport(settings, nightly(...CREDIT), {
      line: 7,
      column: 3,
      guard: "    if (!(await claimPeriod('club:accrue', { cron: '15 1 * * *', tz: 'Europe/Lisbon' }))) return;",
      after: 10,
      importAfter: 3,
    }),
  ],
});
