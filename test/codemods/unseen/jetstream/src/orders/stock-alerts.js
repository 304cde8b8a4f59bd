import { connect } from 'nats';

export async function lowStockAlert(sku, level) {
  const nc = await connect();
  const js = nc.jetstream();
  await js.publish('stock.low', JSON.stringify({ sku, level, at: new Date().toISOString() }));
  await nc.close();
}
