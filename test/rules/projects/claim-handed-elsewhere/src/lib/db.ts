import { PrismaClient } from '@prisma/client';

export const db = new PrismaClient();

export const postal = {
  async send(address: string): Promise<void> {
    await fetch(`https://post.example/${address}`);
  },
};
