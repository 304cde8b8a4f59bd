// no-unguarded-schedule on work that leaves first unless this replica is the elected leader:
// `if (!this.leader.isLeader) return;` (a flag or getter read, not called, whose name says leader),
// also among other exits of one `||` test. Every replica runs the tick, the leader alone does the
// work — in the work itself or in a method of an injected service it calls. A check on another flag,
// or a leader check after the work has written, coordinates nothing.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'index' } };

const job = (...body: string[]) =>
  lines(
    "import { Cron } from '@nestjs/schedule';",
    "import { db } from './db';",
    'export class ExportsJanitor {',
    '  constructor(private readonly cluster: ClusterMembership) {}',
    "  @Cron('0 * * * *')",
    '  async purgeExpiredExports(): Promise<void> {',
    ...body.map((l) => `    ${l}`),
    '  }',
    '}',
  );

const PURGE = "await db.query('DELETE FROM exports WHERE expires_at < now()');";

const REPORT = {
  line: 5,
  column: 3,
  guard: "    if (!(await claimPeriod('index:purge-expired-exports', { cron: '0 * * * *' }))) return;",
  after: 6,
  importAfter: 2,
};

ruleTester.run('no-unguarded-schedule (leader exit)', noUnguardedSchedule, {
  valid: [
    { settings, code: job('if (!this.cluster.isLeader) return;', PURGE) },
    { settings, code: job("this.log.info('purging');", 'if (!this.running || !this.cluster.isLeader) return;', PURGE) },
    { settings, code: job('if (this.cluster.elected === false) {', '  return;', '}', PURGE) },
  ],
  invalid: [
    guardedReport(settings, job('if (!this.cluster.isReady) return;', PURGE), REPORT),
    guardedReport(settings, job(PURGE, 'if (!this.cluster.isLeader) return;', PURGE), REPORT),
  ],
});
