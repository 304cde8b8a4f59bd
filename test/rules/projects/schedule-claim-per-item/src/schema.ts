export const invoices = {} as any;
export const subscriptions = {} as any;
export const workspaces = {} as any;
export const noticesSent = {} as any;
