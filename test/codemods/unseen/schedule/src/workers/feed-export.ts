import { logger } from '../logger';
import { exportProductFeed } from '../feeds/export';

export class FeedExporter {
  private timer?: NodeJS.Timeout;

  constructor(private readonly intervalMs = 15 * 60_000) {}

  start(): void {
    this.timer = setInterval(this.exportFeed.bind(this), this.intervalMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private async exportFeed(): Promise<void> {
    const file = await exportProductFeed();
    logger.info({ file }, 'product feed exported');
  }
}
