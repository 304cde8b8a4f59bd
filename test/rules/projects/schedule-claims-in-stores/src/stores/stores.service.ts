import type { Db } from '../db';
import { BalanceStore } from './balance.store';
import { TransferStore } from './transfer.store';

export class StoresService {
  public transfers: TransferStore;
  public balances: BalanceStore;

  constructor(db: Db) {
    this.transfers = new TransferStore(db);
    this.balances = new BalanceStore(db);
  }
}
