import { mirrorTransfers } from '@acme/mirror';
import { listTransfers, submitCommand, type Transfer, type TransferServer } from '../api/transfer-client.js';

const servers: TransferServer[] = [];

// What each download server is transferring, held in this process for the UI.
class TransferTracker {
  private byServer: Record<number, Transfer[]> = {};
  private checkedAt = 0;

  public async trackTransfers(): Promise<void> {
    for (const server of servers) {
      try {
        this.byServer[server.id] = await listTransfers(server);
      } catch (error) {
        console.warn('transfer list failed', server.id, error);
      }
    }
    this.checkedAt = Date.now();
  }

  public clearTransfers(): void {
    this.byServer = {};
  }

  public async retryStalled(): Promise<void> {
    for (const server of servers) await submitCommand(server, 'RetryStalled');
  }

  public async mirrorAll(): Promise<void> {
    await mirrorTransfers(Object.values(this.byServer).flat());
  }
}

const tracker = new TransferTracker();

export default tracker;
