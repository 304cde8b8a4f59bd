import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { AppDataSource } from './db/data-source';

async function bootstrap() {
  await AppDataSource.initialize();
  if (process.env.POSTGRES_RUN_MIGRATIONS === 'true') {
    console.log('running pending migrations');
    await AppDataSource.runMigrations();
  }
  const app = await NestFactory.create(AppModule);
  await app.listen(process.env.PORT ?? 3000);
}

void bootstrap();
