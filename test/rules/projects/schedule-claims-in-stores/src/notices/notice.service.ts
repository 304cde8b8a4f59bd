import { PrefStore } from '../visits/pref.store';
import { VisitService } from '../visits/visit.service';

export interface Mailer {
  sendMail(message: { to: string; subject: string }): Promise<void>;
}

export class NoticeService {
  constructor(
    private readonly visits: VisitService,
    private readonly mailer: Mailer,
    private readonly prefs: PrefStore,
  ) {}

  async remindUpcoming(hours: number) {
    const due = await this.visits.findDue(hours);
    let sent = 0;
    let skipped = 0;
    for (const visit of due) {
      const pref = await this.prefs.forUser(visit.email);
      if (!pref.remindersOn) continue;
      const claimed = await this.visits.markReminded(visit.id);
      if (!claimed) {
        skipped++;
        continue;
      }
      await this.mailer.sendMail({ to: visit.email, subject: 'Your visit is coming up' });
      sent++;
    }
    return { sent, skipped };
  }

  async thankVisitors() {
    for (const visit of await this.visits.findDue(0)) {
      if (!(await this.visits.markOpened(visit.id))) continue;
      await this.mailer.sendMail({ to: visit.email, subject: 'See you again' });
    }
  }

  async askForSurveys() {
    for (const visit of await this.visits.findDue(0)) {
      await this.visits.markSurveyed(visit.id);
      await this.mailer.sendMail({ to: visit.email, subject: 'How did it go?' });
    }
  }

  async remindOwners() {
    for (const visit of await this.visits.findDue(1)) {
      await this.prefs.upsertSeen(visit.email);
      if (!(await this.visits.markReminded(visit.id))) continue;
      await this.mailer.sendMail({ to: visit.email, subject: 'Your visit is tomorrow' });
    }
  }
}
