import { Injectable } from '@nestjs/common';
import { DistributedLockService } from '../common/distributed-lock.service';
import { InvoiceRepository } from './invoice.repository';

@Injectable()
export class InvoiceService {
  constructor(
    private readonly locks: DistributedLockService,
    private readonly invoiceRepository: InvoiceRepository,
  ) {}

  async chargeOverdue(): Promise<void> {
    const lock = await this.locks.acquire('billing:charge-overdue', 10 * 60 * 1000);
    if (!lock) return;
    try {
      for (const invoice of await this.invoiceRepository.overdue()) await this.invoiceRepository.markCharged(invoice.id);
    } finally {
      await lock.release();
    }
  }

  async expireDrafts(): Promise<void> {
    await this.invoiceRepository.expireDrafts();
  }
}
