import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

@Injectable()
export class InvoiceRepository {
  constructor(private readonly dataSource: DataSource) {}

  overdue(): Promise<Array<{ id: string }>> {
    return this.dataSource.query("SELECT id FROM invoices WHERE status = 'open' AND due_at < now()");
  }

  async markCharged(id: string): Promise<void> {
    await this.dataSource.query("UPDATE invoices SET status = 'charged' WHERE id = $1", [id]);
  }

  async expireDrafts(): Promise<void> {
    await this.dataSource.query("DELETE FROM invoices WHERE status = 'draft' AND created_at < now() - interval '30 days'");
  }
}
