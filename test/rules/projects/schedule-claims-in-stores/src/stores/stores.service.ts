import type { Db } from '../db';
import { AccountStore } from './account.store';
import { TransferStore } from './transfer.store';

export class StoresService {
  public transfers: TransferStore;
  public accounts: AccountStore;

  constructor(db: Db) {
    this.transfers = new TransferStore(db);
    this.accounts = new AccountStore(db);
  }
}
