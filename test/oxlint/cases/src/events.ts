import { connect } from 'nats';

export async function publishOrder(order: { id: string }) {
  const nc = await connect();
  const js = nc.jetstream();
  await js.publish('orders.created', JSON.stringify(order));
  await js.publish('orders.audited', JSON.stringify(order), { msgID: `audit-${order.id}` });
}
