// One JetStream publish with `msgID` (sent as the `Nats-Msg-Id` header): inside the stream's
// duplicate window the server stores a message id once and acknowledges a repeat with
// `duplicate: true`. Works with nats v2 (`nc.jetstream()`) and @nats-io/jetstream v3
// (`jetstream(nc)`), recognised by shape — neither is imported here.
import { InvalidArgumentError, PublishFailedError } from '../errors.js';

/** What both clients' JetStream contexts have: `publish(subject, data, { msgID })` → PubAck. */
export interface JetStreamPublisher {
  publish(subject: string, data?: Uint8Array, options?: { msgID?: string }): Promise<{ stream: string; seq: number; duplicate: boolean }>;
}

/** The server's acknowledgement of one publish. */
export interface PublishOutcome {
  /** The server had already stored this `msgID` inside the duplicate window and dropped the repeat. */
  duplicate: boolean;
  /** Stream sequence of the stored message (of the first one, for a duplicate). */
  seq: number;
  /** The stream that stored it. */
  stream: string;
}

const encoder = new TextEncoder();

export function assertJetStreamPublisher(js: unknown, what: string): asserts js is JetStreamPublisher {
  if (typeof js !== 'object' || js === null || typeof (js as JetStreamPublisher).publish !== 'function') {
    throw new InvalidArgumentError(
      `${what}: js must be a JetStream context with publish(subject, data, { msgID }) — nats v2 nc.jetstream() or @nats-io/jetstream jetstream(nc)`,
    );
  }
}

/** Bytes for a payload: a Uint8Array (Buffer) as is, a string as UTF-8, anything else as JSON. */
export function payloadBytes(data: unknown): Uint8Array {
  if (data instanceof Uint8Array) return data;
  if (typeof data === 'string') return encoder.encode(data);
  if (data === undefined) return new Uint8Array(0);
  return encoder.encode(JSON.stringify(data));
}

/**
 * Publishes `data` to `subject` with `msgID` and returns whether the server saw it as a duplicate.
 * Throws `PublishFailedError` (cause: the client's error) when the server does not acknowledge it.
 */
export async function publishOnce(
  js: JetStreamPublisher,
  subject: string,
  data: Uint8Array | string,
  msgID: string,
): Promise<PublishOutcome> {
  assertJetStreamPublisher(js, 'publishOnce');
  if (typeof subject !== 'string' || subject.length === 0)
    throw new InvalidArgumentError(`publishOnce: subject must be a non-empty string, got ${JSON.stringify(subject)}`);
  if (typeof msgID !== 'string' || msgID.length === 0)
    throw new InvalidArgumentError(`publishOnce: msgID must be a non-empty string, got ${JSON.stringify(msgID)}`);
  let ack: Awaited<ReturnType<JetStreamPublisher['publish']>>;
  try {
    ack = await js.publish(subject, payloadBytes(data), { msgID });
  } catch (error) {
    throw new PublishFailedError(
      `JetStream publish to ${subject} (msgID ${msgID}) was not acknowledged: ${(error as Error)?.message ?? String(error)}`,
      { cause: error },
    );
  }
  return { duplicate: ack?.duplicate === true, seq: Number(ack?.seq), stream: String(ack?.stream) };
}
