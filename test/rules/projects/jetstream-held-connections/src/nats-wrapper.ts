import { connect, type NatsConnection } from 'nats';

class NatsWrapper {
  private connection?: NatsConnection;

  get client(): NatsConnection {
    if (!this.connection) throw new Error('connect first');
    return this.connection;
  }

  async connect(url: string) {
    this.connection = await connect({ servers: url });
  }
}

export const natsWrapper = new NatsWrapper();
