import { Injectable } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import type { Pool } from 'pg';
import type { Db } from '../db';
import { StoresService } from '../stores/stores.service';

@Injectable()
export class LedgerTasks {
  constructor(
    private readonly stores: StoresService,
    private readonly db: Db,
    private readonly pool: Pool,
  ) {}

  @Cron('*/10 * * * * *')
  async settleTransfers() {
    await this.db.transaction(async (trx) => {
      const transfer = await this.stores.transfers.nextQueued(trx);
      if (!transfer) return;
      await this.stores.balances.debit(trx, transfer.fromId, transfer.amount);
      await this.stores.transfers.markSettled(trx, transfer.id);
    });
  }

  @Cron('*/10 * * * * *')
  async settleTransfersOnClient() {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const transfer = await this.stores.transfers.nextQueuedOn(client);
      if (transfer) await client.query("UPDATE transfers SET state = 'settled' WHERE id = $1", [transfer.id]);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  }

  @Cron('*/10 * * * * *')
  async refundTransfers() {
    await this.db.transaction(async (trx) => {
      const transfer = await this.stores.transfers.nextRefund(trx);
      if (!transfer) return;
      await this.stores.balances.credit(trx, transfer.fromId, transfer.amount);
    });
  }

  @Cron('0 * * * * *')
  async previewTransfers() {
    const transfer = await this.stores.transfers.nextQueued(this.db);
    if (!transfer) return;
    await this.stores.balances.debit(this.db, transfer.fromId, transfer.amount);
  }
}
