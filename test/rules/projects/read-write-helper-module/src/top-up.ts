import { wallets } from './data.js';
import { blankWallet, lockedWallet, walletFor } from './wallet-lookup.js';

export async function topUp(id: string, credits: number): Promise<void> {
  const wallet = await walletFor(id);
  wallet.credits += credits;
  await wallets.save(wallet);
}

export async function topUpLocked(id: string, credits: number): Promise<void> {
  const wallet = await lockedWallet(id);
  if (!wallet) return;
  wallet.credits += credits;
  await wallets.save(wallet);
}

export async function open(id: string, credits: number): Promise<void> {
  const wallet = blankWallet(id);
  wallet.credits += credits;
  await wallets.save(wallet);
}
