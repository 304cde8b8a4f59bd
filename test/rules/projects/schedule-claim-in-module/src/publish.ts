import type { OutboxEvent } from './events/store.js';

export async function publish(event: OutboxEvent): Promise<void> {
  await fetch(`https://hooks.example.com/${event.topic}`, { method: 'POST', body: JSON.stringify(event.payload) });
}
