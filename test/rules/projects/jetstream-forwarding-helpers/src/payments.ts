import { randomUUID } from 'node:crypto';
import type { NatsConnection } from 'nats';
import { EventPublisher, publishEvent, publishPayment } from './nats/publish';

export async function captured(nc: NatsConnection, payment: { id: string; amount: number }) {
  await publishPayment(nc, 'payments.captured', payment);
  await publishPayment(nc, 'payments.captured', payment, { msgID: payment.id });
  await publishEvent(nc, 'payments.audit', payment, { msgID: randomUUID() });
  await new EventPublisher(nc).publish('payments.totals', payment, payment.id);
  const publisher = new EventPublisher(nc);
  await publisher.publish('payments.totals', payment, randomUUID());
  const id = randomUUID();
  await publisher.publish('payments.ledger', payment, id);
  await new EventPublisher(nc).publish('payments.refunds', payment);
}
