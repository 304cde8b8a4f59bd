import { setInterval as every } from 'node:timers/promises';
import { outbox } from '../outbox';
import { broker } from '../broker';

export async function runOutboxPoller(signal: AbortSignal): Promise<void> {
  for await (const _ of every(2_000, undefined, { signal })) {
    const pending = await outbox.pending(100);
    for (const message of pending) {
      await broker.send(message.topic, message.body);
      await outbox.markSent(message.id);
    }
  }
}
