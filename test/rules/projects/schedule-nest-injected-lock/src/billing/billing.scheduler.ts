import { Injectable } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { InvoiceService } from './invoice.service';

@Injectable()
export class BillingScheduler {
  constructor(private readonly invoices: InvoiceService) {}

  @Cron(CronExpression.EVERY_HOUR)
  async chargeOverdue(): Promise<void> {
    await this.invoices.chargeOverdue();
  }

  @Cron(CronExpression.EVERY_DAY_AT_MIDNIGHT)
  async expireDrafts(): Promise<void> {
    await this.invoices.expireDrafts();
  }
}
