import { Injectable } from '@nestjs/common';
import { Audited } from '../common/audited.decorator';
import { LeaderCron } from '../common/leader-cron.decorator';
import { PrimaryCron } from '../common/primary-cron.decorator';
import { db } from '../db';

@Injectable()
export class LinkJobs {
  @PrimaryCron('0 2 * * *')
  async purgeExpiredLinks() {
    await db.query('DELETE FROM magic_links WHERE expires_at < now()');
  }

  @LeaderCron('30 2 * * *')
  async purgeExpiredInvites() {
    await db.query('DELETE FROM invites WHERE expires_at < now()');
  }

  @Audited('purge-schedule')
  async purgeOnRequest() {
    await db.query('DELETE FROM magic_links WHERE used = true');
  }
}
