import { CronJob } from 'cron';

export class ParkedCronJob {
  constructor(
    private readonly expr: string,
    private readonly task: () => Promise<void>,
  ) {}

  start() {
    return new CronJob(this.expr, () => this.task(), null, true);
  }
}
