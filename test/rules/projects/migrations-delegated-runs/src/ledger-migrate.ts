import { NestFactory } from '@nestjs/core';
import { LedgerMigrationsService } from './ledger/ledger-migrations.service';

export async function runLedgerMigrations(): Promise<void> {
  const { OpsModule } = await import('./ops.module');
  const app = await NestFactory.createApplicationContext(OpsModule);
  try {
    await app.get(LedgerMigrationsService).run();
  } finally {
    await app.close();
  }
}

const startedDirectly = (): boolean => process.argv[1]?.endsWith('ledger-migrate.js') ?? false;

if (startedDirectly()) {
  runLedgerMigrations()
    .then(() => process.exit(0))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
