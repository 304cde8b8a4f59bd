import { findAccountById, updateAccountCredits } from './account-store';

export const chargeFor = async (account: { id: string }, price: number) => {
  await updateAccountCredits(account.id, -price);
};

export const buyTicket = async (req: { params: { id: string } }, res: { status(n: number): { end(): void } }, price: number) => {
  const account = await findAccountById(req.params.id);
  if (!account) return res.status(404).end();
  if (account.credits < price) {
    return res.status(402).end();
  } else {
    chargeFor(account, price);
  }
  return res.status(200).end();
};
