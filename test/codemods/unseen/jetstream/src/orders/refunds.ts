import type { JetStreamClient } from '@nats-io/jetstream';

interface Refund {
  id: number;
  orderId: string;
  amount: number;
}

export async function publishRefund(js: JetStreamClient, refund: Refund): Promise<void> {
  const payload = new TextEncoder().encode(JSON.stringify(refund));
  await js.publish('refunds.issued', payload);
}
