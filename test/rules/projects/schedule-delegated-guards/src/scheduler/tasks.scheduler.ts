import { Injectable } from '@nestjs/common';
import { Cron, CronExpression, Interval } from '@nestjs/schedule';
import { LoginAudit, RetentionService, SessionStore } from '../jobs';

@Injectable()
export class TasksScheduler {
  constructor(
    private readonly retention: RetentionService,
    private readonly sessions: SessionStore,
    private readonly logins: LoginAudit,
  ) {}

  @Cron(CronExpression.EVERY_DAY_AT_3AM)
  async pruneAuditTrail(): Promise<void> {
    await this.retention.pruneAuditTrail();
  }

  @Cron(CronExpression.EVERY_HOUR)
  async lapseSubscriptions(): Promise<void> {
    await this.retention.lapseSubscriptions();
  }

  @Interval(60_000)
  pruneSessions(): void {
    this.sessions.pruneExpired();
  }

  @Interval(60_000)
  async pruneLogins(): Promise<void> {
    await this.logins.pruneExpired();
  }

  @Cron(CronExpression.EVERY_30_MINUTES)
  async purgeExports(): Promise<void> {
    await this.retention.purgeExports();
  }
}
