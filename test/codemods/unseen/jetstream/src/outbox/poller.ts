import { connect, headers } from 'nats';
import { outboxRepository } from './repository';

export async function pollOutbox(): Promise<void> {
  const js = (await connect()).jetstream();
  const entries = await outboxRepository.claimBatch(100);
  for (const entry of entries) {
    const h = headers();
    h.set('content-type', 'application/json');
    await js.publish(entry.subject, entry.data, { headers: h });
    await outboxRepository.markDone(entry.id);
  }
}
