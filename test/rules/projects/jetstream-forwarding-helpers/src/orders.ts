import type { NatsConnection } from 'nats';
import { EventPublisher, publishEvent, publishNotice } from './nats/publish';

export async function placed(nc: NatsConnection, order: { id: string; total: number }) {
  await publishEvent(nc, 'orders.placed', order);
  await publishEvent(nc, 'orders.placed', order, { msgID: order.id });
  await publishEvent(nc, 'orders.placed', order, { expect: { streamName: 'ORDERS' } });
  const publisher = new EventPublisher(nc);
  await publisher.publish('orders.totals', order);
  await publisher.publish('orders.totals', order, order.id);
  publishNotice(nc, 'orders.notice', order);
}
