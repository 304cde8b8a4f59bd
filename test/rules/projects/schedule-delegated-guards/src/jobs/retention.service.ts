import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ClusterService } from '../common/cluster.service';
import { LeaderLockService } from '../common/leader-lock.service';

@Injectable()
export class RetentionService {
  constructor(
    private readonly leader: LeaderLockService,
    private readonly dataSource: DataSource,
    private readonly cluster: ClusterService,
  ) {}

  async pruneAuditTrail(): Promise<void> {
    if (!(await this.leader.holds('retention:audit', 30 * 60_000))) return;
    await this.dataSource.query("DELETE FROM audit_events WHERE created_at < now() - interval '90 days'");
  }

  async lapseSubscriptions(): Promise<void> {
    await this.dataSource.query("UPDATE subscriptions SET status = 'lapsed' WHERE renews_at < now()");
  }

  async purgeExports(): Promise<void> {
    if (!this.cluster.isLeader) return;
    await this.dataSource.query('DELETE FROM exports WHERE expires_at < now()');
  }
}
