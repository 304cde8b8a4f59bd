import type { SchedulerRegistry } from '@nestjs/schedule';
import { claimPeriod } from 'replica-guard';
import { addJob, describeTask } from './lib/jobs';
import { pool } from './lib/db';

export class MatcherService {
  private readonly pending = new Map<string, number>();

  constructor(private readonly registry: SchedulerRegistry) {
    addJob(this.registry, 'match', '0 */5 * * * *', this.matchTransfers.bind(this));
    addJob(this.registry, 'expire', '0 0 * * * *', this.expireHolds.bind(this));
    addJob(this.registry, 'forget', '*/10 * * * * *', () => this.pending.clear());
    describeTask('match', this.matchTransfers.bind(this));
  }

  async matchTransfers() {
    await pool.query('UPDATE transfers SET matched = true WHERE matched = false AND target_id IS NOT NULL');
  }

  async expireHolds() {
    if (!(await claimPeriod('matcher:expire-holds', { cron: '0 0 * * * *' }))) return;
    await pool.query('DELETE FROM holds WHERE expires_at < now()');
  }
}
