import { wallets, type Wallet } from './data.js';

export async function walletFor(id: string): Promise<Wallet> {
  const wallet = await wallets.findOneBy({ id });
  if (!wallet) throw new Error(`no wallet ${id}`);
  return wallet;
}

export const lockedWallet = async (id: string): Promise<Wallet | null> =>
  wallets.findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });

export function blankWallet(id: string): Wallet {
  return { id, credits: 0 };
}
