import { connect, type JetStreamClient } from 'nats';

class NatsWrapper {
  private context?: JetStreamClient;

  get js(): JetStreamClient {
    if (!this.context) throw new Error('connect first');
    return this.context;
  }

  async connect(url: string) {
    this.context = (await connect({ servers: url })).jetstream();
  }
}

export const natsWrapper = new NatsWrapper();
