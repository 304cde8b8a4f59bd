import { Injectable, Logger } from '@nestjs/common';
import { PrismaService } from '../prisma.service';

@Injectable()
export class StatementService {
  private readonly logger = new Logger(StatementService.name);

  constructor(private readonly prisma: PrismaService) {}

  async generateMonthlyStatements(month: string): Promise<void> {
    const [{ acquired }] = await this.prisma.$queryRaw<{ acquired: boolean }[]>`SELECT pg_try_advisory_lock(8812) AS acquired`;
    if (!acquired) return;
    try {
      const accounts = await this.prisma.account.findMany({ where: { active: true } });
      for (const account of accounts) {
        await this.prisma.statement.create({ data: { accountId: account.id, month } });
      }
      this.logger.log(`statements for ${month} generated`);
    } finally {
      await this.prisma.$queryRaw`SELECT pg_advisory_unlock(8812)`;
    }
  }
}
