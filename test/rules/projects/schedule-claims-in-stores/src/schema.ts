export const transfers = { id: 'id', state: 'state', amount: 'amount' } as const;
export const accounts = { id: 'id', balance: 'balance' } as const;
