import { Injectable } from '@nestjs/common';
import { Umzug } from 'umzug';

@Injectable()
export class LedgerMigrationsService {
  constructor(private readonly umzug: Umzug) {}

  async run(): Promise<void> {
    await this.umzug.up();
  }
}
