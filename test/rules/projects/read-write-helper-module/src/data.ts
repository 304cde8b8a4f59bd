export interface Repository<T> {
  findOneBy(where: Partial<T>): Promise<T | null>;
  findOne(options: { where: Partial<T>; lock?: { mode: string } }): Promise<T | null>;
  save(entity: T): Promise<T>;
}

export interface Wallet {
  id: string;
  credits: number;
}

export declare const wallets: Repository<Wallet>;
