import { CronJob } from 'cron';
import { reportFailure } from './failures';

export class NightlyCronJob {
  private readonly expr: string;
  private readonly label: string;
  private readonly task: () => Promise<void>;

  constructor(expr: string, label: string, task: () => Promise<void>) {
    this.expr = expr;
    this.label = label;
    this.task = task;
    this.arm();
  }

  private arm() {
    new CronJob(this.expr, this.fire.bind(this), null, true);
  }

  private async fire() {
    try {
      await this.task();
    } catch (error) {
      reportFailure(this.label, error);
    }
  }
}
