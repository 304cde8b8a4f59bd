import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { LedgerMigrationsService } from './ledger/ledger-migrations.service';
import { ArchiveMigrationService } from './ledger/archive-migration.service';
import { LedgerExportService } from './ledger/ledger-export.service';
import { ledgerSource } from './db/ormconfig';

async function bootstrap(): Promise<void> {
  const app = await NestFactory.create(AppModule);
  await app.get(LedgerMigrationsService).run();
  await app.get(ArchiveMigrationService).run();
  await app.get(LedgerExportService).run();
  await ledgerSource.initialize();
  await app.listen(3000);
}

void bootstrap();
