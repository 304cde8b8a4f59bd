import type { JetStreamClient } from 'nats';

// The project's own helper: its publish is judged here, not where it is called.
export class AuditPublisher {
  constructor(private readonly js: JetStreamClient) {}

  async publish(entry: { id: string; text: string }) {
    await this.js.publish('audit', JSON.stringify(entry), { msgID: entry.id });
  }
}
