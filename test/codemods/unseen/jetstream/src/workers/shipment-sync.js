import { connect, JSONCodec } from 'nats';

const jc = JSONCodec();

export async function publishShipments(shipments) {
  const nc = await connect();
  const js = nc.jetstream();
  for (const shipment of shipments) {
    await js.publish('shipments.updated', jc.encode({ id: shipment.id, status: shipment.status }));
  }
  await nc.drain();
}
