import prisma from './db';

export const findAccountById = async (id: string) => prisma.account.findUnique({ where: { id } });

export const updateAccountCredits = async (id: string, delta: number) =>
  prisma.account.update({ where: { id }, data: { credits: { increment: delta } } });

export const updateCreditsIfEnough = async (id: string, delta: number) =>
  prisma.account.updateMany({ where: { id, credits: { gte: -delta } }, data: { credits: { increment: delta } } });
