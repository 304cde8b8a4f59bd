// What the JetStream clients look like in source code: which modules make a JetStream context,
// which methods publish, and where the publish options sit. Plain data and pure functions; read
// by `require-jetstream-msg-id` and the `jetstream-msg-id` codemod.

import { plainName } from './names.js';

export type JetStreamApi = 'nats-v2' | 'nats-v3';

/** Modules of the NATS JavaScript clients (v2 is `nats`; v3 is split into `@nats-io/*`). */
export const NATS_MODULES: readonly string[] = [
  'nats',
  'nats.ws',
  '@nats-io/jetstream',
  '@nats-io/nats-core',
  '@nats-io/transport-node',
  '@nats-io/transport-deno',
];

/** Whether an import/require source is one of the NATS client modules. */
export function isNatsModule(source: string): boolean {
  return NATS_MODULES.includes(source);
}

/** Modules of the v2 client (`nats`, `nats.ws`); every other NATS module is v3 (`@nats-io/*`). */
export const NATS_V2_MODULES: readonly string[] = ['nats', 'nats.ws'];

/** Which client API a NATS module belongs to. */
export function jetStreamApiOfModule(module: string): JetStreamApi {
  return NATS_V2_MODULES.includes(module) ? 'nats-v2' : 'nats-v3';
}

/** v3: `jetstream(nc)` from `@nats-io/jetstream` returns a JetStream context. */
export const JETSTREAM_FACTORIES: readonly { module: string; name: string; api: JetStreamApi }[] = [
  { module: '@nats-io/jetstream', name: 'jetstream', api: 'nats-v3' },
];

/** Functions that open a NATS connection (whose `.jetstream()` is a v2 JetStream context). */
export const NATS_CONNECT_FUNCTIONS: readonly { module: string; name: string }[] = [
  { module: 'nats', name: 'connect' },
  { module: 'nats.ws', name: 'connect' },
  { module: '@nats-io/transport-node', name: 'connect' },
  { module: '@nats-io/transport-deno', name: 'connect' },
  { module: '@nats-io/nats-core', name: 'wsconnect' },
];

/**
 * v2: `nc.jetstream(opts?)` on a connection; v3 also has `jsm.jetstream()` on a
 * JetStreamManager. Both return a JetStream context.
 */
export const JETSTREAM_CONTEXT_METHOD = 'jetstream';

/** Types a parameter or field can be annotated with to say "this is a JetStream context". */
export const JETSTREAM_CLIENT_TYPES: readonly { module: string; name: string }[] = [
  { module: 'nats', name: 'JetStreamClient' },
  { module: '@nats-io/jetstream', name: 'JetStreamClient' },
];

/**
 * Type names that say "a JetStream context" whatever module they are imported from: a project
 * often re-exports the client's type from its own module (`import type { JetStreamClient } from '@app/events'`).
 */
export const JETSTREAM_CONTEXT_TYPE_NAMES: readonly string[] = ['JetStreamClient', 'JetStreamContext'];

/**
 * Whether a variable, field or parameter called `name` is, by its name, a JetStream context:
 * `js`, `jetStream`, `jsClient`, `jetstreamClient`, `natsJs`, `jetStreamContext` — not a
 * service or publisher that wraps one (`jetStreamService`, `eventPublisher`), whose `publish`
 * may set `msgID` itself.
 */
export function namesJetStreamContext(name: string): boolean {
  return /^(?:nats)?(?:js|jetstream)(?:client|context|ctx)?$/.test(plainName(name));
}

/**
 * Whether a function or method called `name` returns, by its name, a JetStream context: a project
 * helper such as `getJetStream()`, `getJetStreamClient()`, `createJsContext()`, `jetStreamClient()`.
 * The bare `jetstream()` is the clients' own name, known only through a NATS import.
 */
export function namesJetStreamGetter(name: string): boolean {
  const plain = plainName(name);
  return (
    /^(?:get|create|open|init|make|use)(?:nats)?(?:js|jetstream)(?:client|context|ctx)?$/.test(plain) ||
    /^(?:nats)?(?:js|jetstream)(?:client|context|ctx)$/.test(plain)
  );
}

/** Publish options only JetStream has (`expect: { streamName, lastMsgID }`): a publish given one is a JetStream publish. */
export const JETSTREAM_ONLY_PUBLISH_OPTIONS: readonly string[] = ['expect'];

/** Words of a file that may publish to JetStream without importing a NATS module (a project helper or alias names it). */
export const JETSTREAM_FILE_WORDS = /nats|jet_?stream/i;

/**
 * Whether a field, variable or parameter called `name` is, by its name, a NATS connection handed
 * to a publisher (`client`, `nc`, `conn`, `connection`, `natsClient`, `natsConnection`).
 */
export function namesNatsConnection(name: string): boolean {
  return /^(?:nats)?(?:client|connection|conn|nc)$/.test(plainName(name));
}

/**
 * Words of a file that says it works with JetStream itself, not only NATS: the context or its
 * types (`jetstream`, `JsMsg`, `JetStreamClient`), a stream or durable consumer it names
 * (`streamName`, `durableName`). A NATS Streaming (STAN) file imports another module, which
 * is not a NATS client module.
 */
export const JETSTREAM_USE_WORDS = /jet_?stream|\bJs[A-Z]\w*|\bstream_?name\b|\bdurable(?:_?name)?\b/i;

/** Types of a NATS connection (whose `.jetstream()` is a v2 JetStream context). */
export const NATS_CONNECTION_TYPES: readonly { module: string; name: string }[] = [
  { module: 'nats', name: 'NatsConnection' },
  { module: '@nats-io/nats-core', name: 'NatsConnection' },
  { module: '@nats-io/transport-node', name: 'NatsConnection' },
];

/**
 * Publish methods of a JetStream context and the index of their options argument:
 * `js.publish(subject, payload?, options?)` in both v2 and v3.
 */
export const JETSTREAM_PUBLISH_METHODS: readonly { name: string; optionsIndex: number }[] = [{ name: 'publish', optionsIndex: 2 }];

/** The option that becomes the `Nats-Msg-Id` header. */
export const MSG_ID_OPTION = 'msgID';

/** The publish option that carries headers (`{ headers: h }`), which may hold the message id itself. */
export const HEADERS_OPTION = 'headers';

/** The header JetStream deduplicates on; `msgID` is written into it. Header names compare without case. */
export const MSG_ID_HEADER = 'Nats-Msg-Id';

/** Constants the clients export for that header's name (`JsHeaders.MsgIdHdr` in `nats`). */
export const MSG_ID_HEADER_CONSTANTS: readonly string[] = ['MsgIdHdr'];

/** Methods of a headers object (`headers()` in `nats`, `MsgHdrs`) that write a header. */
export const HEADER_SETTERS: readonly string[] = ['set', 'append'];

/**
 * Names under which a helper may take the id it publishes as `msgID` (an option or an argument):
 * `msgID`, `msgId`, `messageId`, `dedupId`, `deduplicationKey`, `idempotencyKey`.
 */
const MESSAGE_ID_OPTION = /^(?:msg_?id|message_?id|dedup(?:e|lication)?_?(?:id|key)|idempotency_?key)$/i;

/** Whether an option or argument called `name` hands a helper the message id to publish with. */
export function namesMessageIdOption(name: string): boolean {
  return MESSAGE_ID_OPTION.test(name);
}

/** Files that name NATS itself (an import of `./nats/connection`, a `NatsClient`, a `natsWrapper`). */
export const NATS_FILE_WORD = /nats/i;

/**
 * Modules of NATS Streaming (STAN), the older streaming layer: its publish stores every message,
 * and it has no message id for the server to deduplicate on. A project's connection holder
 * (`natsWrapper.client`) that imports one hands publishers a STAN client, not a NATS connection.
 */
export const NATS_STREAMING_MODULES: readonly string[] = ['node-nats-streaming', 'ts-nats-streaming', 'nats-streaming'];

/** Whether a module's text imports a NATS Streaming module (asked of one module, at one publish). */
export function importsNatsStreaming(text: string): boolean {
  return (
    text.includes('nats-streaming') && NATS_STREAMING_MODULES.some((module) => text.includes(`'${module}'`) || text.includes(`"${module}"`))
  );
}

/**
 * Fields of a typed value that are a stable id of one message, in order of preference: `id`, an
 * event's or message's own id, a change-data-capture record's log position (unique per change).
 */
export const MESSAGE_ID_FIELDS: readonly string[] = ['id', 'eventId', 'messageId', 'lsn'];

/** Variables that are themselves a stable message id: `outboxId`, `eventId`, `row_id`, `id`. */
const ID_VARIABLE = /^(?:id|(?:outbox|event|evt|message|msg|row|record|entry)_?id)$/i;

/** Variables that hold a row or an event whose `.id` is a stable message id. */
const ID_HOLDER = /^(?:row|outboxRow|event|evt|msg|message|record|entry|outbox|outboxEvent|outboxMessage)$/;

/**
 * The message-id expression a variable called `name` offers (`row` → `row.id`, `outboxId` →
 * `outboxId`), with its rank (lower is more direct), or undefined.
 */
export function msgIdCandidateOf(name: string): { text: string; rank: 0 | 1 } | undefined {
  if (ID_VARIABLE.test(name)) return { text: name, rank: 0 };
  if (ID_HOLDER.test(name)) return { text: `${name}.id`, rank: 1 };
  return undefined;
}

/**
 * NestJS transports whose client proxy's `emit(pattern, data)` publishes to JetStream.
 * `NatsJetStreamClientProxy` from `@nestjs-plugins/nestjs-nats-jetstream-transport` sets a message
 * id only when `data` is a record built with one: `new NatsJetStreamRecordBuilder(payload)` records
 * with their options (`setMsgId(id)`), and any other value with none. `NatsClient` from
 * `@alexy4744/nestjs-nats-jetstream-transporter` has no such record: its `emit` (and `emitAsync`)
 * publishes every event with no id; nor has `NatsJetStreamClient`, the wrapper the first package
 * exported before records existed (v1), whose `emit` hands any payload on as it is. (A transport that makes the id itself, like
 * `@horizon-republic/nestjs-jetstream`'s, is not listed.)
 */
export const JETSTREAM_CLIENT_PROXIES: readonly {
  module: string;
  proxy: string;
  /** The proxy's methods that publish an event (`send` is request/reply). */
  emits: readonly string[];
  /** The builder of records that carry publish options, its id setter and its build method; none when no payload can carry an id. */
  builder?: { name: string; setMsgId: string; build: string };
  /** The record class itself (`new NatsJetStreamRecord(payload, options)`). */
  record?: string;
}[] = [
  {
    module: '@nestjs-plugins/nestjs-nats-jetstream-transport',
    proxy: 'NatsJetStreamClientProxy',
    emits: ['emit'],
    builder: { name: 'NatsJetStreamRecordBuilder', setMsgId: 'setMsgId', build: 'build' },
    record: 'NatsJetStreamRecord',
  },
  { module: '@nestjs-plugins/nestjs-nats-jetstream-transport', proxy: 'NatsJetStreamClient', emits: ['emit'] },
  { module: '@alexy4744/nestjs-nats-jetstream-transporter', proxy: 'NatsClient', emits: ['emit', 'emitAsync'] },
];

/**
 * A pull from a JetStream consumer: `consumer.fetch({ max_messages: 50, expires: 5000 })` (v2's
 * `js.fetch(stream, durable, { batch })`, v3's `consumer.fetch({ max_messages })`). The options
 * that say so, and the acknowledgement a durable consumer's messages take: a consumer that is acked
 * hands each message to one puller. Read by no-unguarded-schedule's pull loop (rules/no-unguarded-schedule/jetstream-pull.ts).
 */
export const PULL_FETCH_METHOD = 'fetch';
export const PULL_OPTION_KEYS: readonly string[] = ['batch', 'max_messages', 'max_bytes', 'expires'];
export const ACK_METHODS: readonly string[] = ['ack', 'ackAck'];
