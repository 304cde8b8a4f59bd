import { Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression, Interval } from '@nestjs/schedule';
import { ReportsService } from './reports.service';

@Injectable()
export class ReportsScheduler {
  private readonly logger = new Logger(ReportsScheduler.name);

  constructor(private readonly reports: ReportsService) {}

  @Cron(CronExpression.EVERY_HOUR)
  async buildHourlySalesReport(): Promise<void> {
    const report = await this.reports.aggregateSales({ window: '1h' });
    await this.reports.publish(report);
    this.logger.log(`hourly sales report ${report.id} published`);
  }

  @Interval(30_000)
  async retryFailedExports() {
    const failed = await this.reports.findFailedExports();
    for (const item of failed) {
      await this.reports.retryExport(item.id);
    }
  }
}
