import { Injectable } from '@nestjs/common';
import { Cron, Interval } from '@nestjs/schedule';
import { claimPeriod } from 'replica-guard';

@Injectable()
export class ReportsService {
  constructor(private readonly db: { query(sql: string): Promise<unknown> }) {}

  @Cron('*/5 * * * *')
  async rollUp() {
    await this.db.query('insert into daily_totals select * from pending_totals');
  }

  @Interval(60_000)
  async guarded() {
    if (!(await claimPeriod('reports:guarded', 60_000))) return;
    await this.db.query('delete from report_cache');
  }
}
