import { Injectable } from '@nestjs/common';

@Injectable()
export class LedgerExportService {
  async run(): Promise<string> {
    return 'exported';
  }
}
