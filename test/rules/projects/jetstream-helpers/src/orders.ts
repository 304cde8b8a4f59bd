import { openBus, busFor, plainConnection } from './bus';
import { stream } from './shared';

export async function orderPlaced(order: { ref: string }, body: Uint8Array) {
  const bus = await openBus();
  await bus.publish('orders.placed', body);
  await (await busFor()).publish('orders.audit', body);
  await stream.publish('orders.mirror', body, { headers: undefined });
  (await plainConnection()).publish('orders.ping', body);
  await bus.publish('orders.placed.v2', body, { msgID: order.ref });
}
