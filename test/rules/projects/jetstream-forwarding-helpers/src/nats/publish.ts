import type { JetStreamPublishOptions, NatsConnection } from 'nats';

// Publishes with the options its caller hands it: the id is the caller's to give.
export async function publishEvent(nc: NatsConnection, subject: string, data: unknown, options?: Partial<JetStreamPublishOptions>) {
  return nc.jetstream().publish(subject, JSON.stringify(data), options);
}

// Publishes with the id its caller hands it.
export class EventPublisher {
  constructor(private readonly nc: NatsConnection) {}

  async publish(subject: string, data: unknown, msgId?: string) {
    await this.nc.jetstream().publish(subject, JSON.stringify(data), { msgID: msgId });
  }
}

// Core NATS: nothing is stored, no id to give.
export function publishNotice(nc: NatsConnection, subject: string, data: unknown, options?: { reply?: string }) {
  nc.publish(subject, JSON.stringify(data), options);
}

// Merges stream defaults (no id among them) with the options its caller hands it.
const STREAM_DEFAULTS = { expect: { streamName: 'PAYMENTS' }, timeout: 2000 };

export async function publishPayment(nc: NatsConnection, subject: string, data: unknown, options: Partial<JetStreamPublishOptions> = {}) {
  return nc.jetstream().publish(subject, JSON.stringify(data), { ...STREAM_DEFAULTS, ...options });
}
