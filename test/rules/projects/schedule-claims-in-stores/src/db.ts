export type Db = {
  transaction<T>(fn: (trx: Db) => Promise<T>): Promise<T>;
  select(): any;
  update(table: unknown): any;
};
