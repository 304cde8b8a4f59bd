import { Injectable, Logger } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { NoticeService, type Mailer } from '../notices/notice.service';
import { RunStore } from '../runs/run.store';

@Injectable()
export class NoticeTasks {
  private readonly logger = new Logger(NoticeTasks.name);

  constructor(
    private readonly notices: NoticeService,
    private readonly runs: RunStore,
    private readonly mailer: Mailer,
  ) {}

  @Cron('0 */5 * * * *')
  async remindVisitors() {
    const result = await this.notices.remindUpcoming(24);
    this.logger.log(`reminders sent=${result.sent}`);
  }

  @Cron('0 0 9 * * *')
  async thankVisitors() {
    await this.notices.thankVisitors();
  }

  @Cron('0 0 10 * * *')
  async askForSurveys() {
    await this.notices.askForSurveys();
  }

  @Cron('0 0 7 * * *')
  async sendMorningDigest() {
    const started = await this.runs.begin('morning-digest');
    if (!started) return;
    await this.mailer.sendMail({ to: 'team@example.org', subject: 'Morning digest' });
  }

  @Cron('0 0 8 * * *')
  async sendNoonDigest() {
    const started = await this.runs.beginLogged();
    if (!started) return;
    await this.mailer.sendMail({ to: 'team@example.org', subject: 'Noon digest' });
  }

  @Cron('0 0 6 * * *')
  async sendEveningDigest() {
    await this.runs.begin('evening-digest');
    await this.mailer.sendMail({ to: 'team@example.org', subject: 'Evening digest' });
  }

  @Cron('0 0 12 * * *')
  async remindOwners() {
    await this.notices.remindOwners();
  }
}
