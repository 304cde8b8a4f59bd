import { findAccountById, updateAccountCredits, updateCreditsIfEnough } from './account-store';

// The bound is in the write's filter: one of two racing requests changes no row.
export const spendCarefully = async (id: string, price: number) => {
  const account = await findAccountById(id);
  if (!account || account.credits < price) throw new Error('low');
  await updateCreditsIfEnough(id, -price);
};

// A floor checked, then credits given back: the floor cannot be crossed.
export const refund = async (id: string, price: number) => {
  const account = await findAccountById(id);
  if (!account || account.credits < price) throw new Error('low');
  await updateAccountCredits(id, price);
};
