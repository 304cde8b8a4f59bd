import type { JetStreamClient } from 'nats';

interface Order {
  id: string;
  customerId: string;
  total: number;
}

export class OrderPublisher {
  constructor(private readonly js: JetStreamClient) {}

  async orderPlaced(order: Order): Promise<void> {
    await this.js.publish('orders.placed', JSON.stringify(order));
  }
}
