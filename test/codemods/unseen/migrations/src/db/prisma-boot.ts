import { execSync } from 'node:child_process';
import { PrismaClient } from '@prisma/client';

export const prisma = new PrismaClient();

export async function bootDatabase(): Promise<void> {
  execSync('npx prisma migrate deploy', { stdio: 'inherit' });
  await prisma.$connect();
}
