import { Injectable } from '@nestjs/common';
import { rename } from 'node:fs/promises';

@Injectable()
export class ArchiveMigrationService {
  async run(): Promise<void> {
    await rename('exports/current', 'exports/previous');
  }
}
