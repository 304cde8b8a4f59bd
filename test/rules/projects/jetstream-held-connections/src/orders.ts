import { natsWrapper } from './nats-wrapper';
import { stanWrapper } from './stan-wrapper';
import { OrderCreatedPublisher } from './order-created-publisher';

export async function orderCreated(order: { id: string; version: number }) {
  await new OrderCreatedPublisher(natsWrapper.client).publish({ id: order.id, version: order.version });
  await new OrderCreatedPublisher(stanWrapper.client).publish({ id: order.id, version: order.version });
}
