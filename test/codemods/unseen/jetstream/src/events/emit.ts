import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';

const nc = await connect({ servers: process.env.NATS_URL });
const js = jetstream(nc);

export async function emitDomainEvent(event: { eventId: string; type: string; data: unknown }): Promise<void> {
  const eventId = event.eventId;
  await js.publish(`events.${event.type}`, JSON.stringify(event.data), { timeout: 5_000 });
  console.debug('emitted', eventId);
}
