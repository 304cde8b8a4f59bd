// require-jetstream-msg-id: a helper that publishes to JetStream with the id (or the options) its
// caller hands it is judged at each call: a call that hands none publishes without an id, and a
// call that hands an id made fresh where it is written hands a new one at every retry.
import { ruleTester } from './rule-tester.js';
import { requireJetStreamMsgId, type RequireJetStreamMsgIdMessageIds } from '../../rules/require-jetstream-msg-id.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireJetStreamMsgId as unknown as Parameters<typeof ruleTester.run<RequireJetStreamMsgIdMessageIds, readonly unknown[]>>[1];

const IMPORTS = "import type { JetStreamClient, JetStreamPublishOptions, NatsConnection } from 'nats';";
// Publishes with the options its caller hands it.
const FORWARDS_OPTIONS = lines(
  'async function publishEvent(nc: NatsConnection, subject: string, data: unknown, options?: Partial<JetStreamPublishOptions>) {',
  '  return nc.jetstream().publish(subject, JSON.stringify(data), options);',
  '}',
);
// Publishes with the id its caller hands it.
const FORWARDS_ID = lines(
  'class Publisher {',
  '  constructor(private js: JetStreamClient) {}',
  '  publishEvent(subject: string, data: unknown, dedupId?: string) {',
  '    return this.js.publish(subject, JSON.stringify(data), { msgID: dedupId });',
  '  }',
  '}',
);
// Merges its own defaults (no id among them) with the caller's options.
const MERGES_DEFAULTS = lines(
  "const DEFAULTS = { expect: { streamName: 'EVENTS' }, timeout: 5000 };",
  'async function publishEvent(nc: NatsConnection, subject: string, data: unknown, options: Partial<JetStreamPublishOptions> = {}) {',
  '  return nc.jetstream().publish(subject, JSON.stringify(data), { ...DEFAULTS, ...options });',
  '}',
);
// Reads the id from the caller's options under its own name.
const READS_OPTION = lines(
  'async function publishTo(js: JetStreamClient, subject: string, data: unknown, opts: { msgId?: string; stream?: string }) {',
  '  return js.publish(subject, JSON.stringify(data), { msgID: opts.msgId, expect: { streamName: opts.stream } });',
  '}',
);

ruleTester.run('require-jetstream-msg-id: helpers that forward the id', rule, {
  valid: [
    // the call hands an id: in the options, as the id argument, under the helper's own key
    lines(
      IMPORTS,
      FORWARDS_OPTIONS,
      "export const go = (nc: NatsConnection, data: { key: string }) => publishEvent(nc, 'a', data, { msgID: data.key });",
    ),
    lines(
      IMPORTS,
      FORWARDS_ID,
      "export const go = (js: JetStreamClient, data: { key: string }) => { const p = new Publisher(js); return p.publishEvent('a', data, data.key); };",
    ),
    lines(
      IMPORTS,
      READS_OPTION,
      "export const go = (js: JetStreamClient, data: { key: string }) => publishTo(js, 'a', data, { msgId: data.key });",
    ),
    // options the file cannot see, a spread, spread arguments
    lines(IMPORTS, FORWARDS_OPTIONS, "export const go = (nc: NatsConnection, data: unknown, o: object) => publishEvent(nc, 'a', data, o);"),
    lines(
      IMPORTS,
      FORWARDS_OPTIONS,
      "export const go = (nc: NatsConnection, data: unknown, o: object) => publishEvent(nc, 'a', data, { ...o });",
    ),
    lines(IMPORTS, FORWARDS_OPTIONS, 'export const go = (args: [NatsConnection, string, unknown]) => publishEvent(...args);'),
    // a helper that makes the id itself, or publishes with none (reported where it publishes, not at its calls)
    lines(
      IMPORTS,
      'async function publishOwn(js: JetStreamClient, subject: string, data: { key: string }, options?: object) {',
      '  return js.publish(subject, JSON.stringify(data), { ...options, msgID: data.key });',
      '}',
      "export const go = (js: JetStreamClient, data: { key: string }) => publishOwn(js, 'a', data);",
    ),
    // an id made once and handed in (fresh or not), a name-based UUID, an id merged over defaults
    lines(
      IMPORTS,
      "import { randomUUID } from 'node:crypto';",
      FORWARDS_ID,
      "export const go = (js: JetStreamClient, data: unknown) => { const id = randomUUID(); return new Publisher(js).publishEvent('a', data, id); };",
    ),
    lines(
      IMPORTS,
      "import { v5 } from 'uuid';",
      FORWARDS_OPTIONS,
      "export const go = (nc: NatsConnection, data: { key: string }) => publishEvent(nc, 'a', data, { msgID: v5(data.key, NS) });",
    ),
    lines(
      IMPORTS,
      MERGES_DEFAULTS,
      "export const go = (nc: NatsConnection, data: { key: string }) => publishEvent(nc, 'a', data, { msgID: data.key });",
    ),
    // an instance made on the spot, handed an id
    lines(
      IMPORTS,
      FORWARDS_ID,
      "export const go = (js: JetStreamClient, data: { key: string }) => new Publisher(js).publishEvent('a', data, data.key);",
    ),
    // defaults that may set headers of their own (a Nats-Msg-Id among them) leave the helper's id unknown
    lines(
      IMPORTS,
      'const DEFAULTS = { headers: defaultHeaders() };',
      'async function publishEvent(nc: NatsConnection, subject: string, data: unknown, options?: Partial<JetStreamPublishOptions>) {',
      '  return nc.jetstream().publish(subject, JSON.stringify(data), { ...DEFAULTS, ...options });',
      '}',
      "export const go = (nc: NatsConnection, data: unknown) => publishEvent(nc, 'a', data);",
    ),
    // a core NATS helper forwarding its options stores nothing
    lines(
      IMPORTS,
      'function publishNotice(nc: NatsConnection, subject: string, data: unknown, options?: { reply?: string }) {',
      '  nc.publish(subject, JSON.stringify(data), options);',
      '}',
      "export const go = (nc: NatsConnection, data: unknown) => publishNotice(nc, 'a', data);",
    ),
  ],
  invalid: [
    {
      code: lines(IMPORTS, FORWARDS_OPTIONS, "export const go = (nc: NatsConnection, data: unknown) => publishEvent(nc, 'a', data);"),
      errors: [
        { messageId: 'forwardedWithoutMsgId', line: 5, column: 58, data: { helper: 'publishEvent', argument: 'options argument 4' } },
      ],
    },
    {
      code: lines(
        IMPORTS,
        FORWARDS_OPTIONS,
        "export const go = (nc: NatsConnection, data: unknown) => publishEvent(nc, 'a', data, { expect: { streamName: 'S' } });",
      ),
      errors: [{ messageId: 'forwardedWithoutMsgId', line: 5, column: 58 }],
    },
    {
      code: lines(
        IMPORTS,
        FORWARDS_ID,
        "export const go = (js: JetStreamClient, data: unknown) => { const p = new Publisher(js); return p.publishEvent('a', data, undefined); };",
      ),
      errors: [
        { messageId: 'forwardedWithoutMsgId', line: 8, column: 99, data: { helper: 'Publisher.publishEvent', argument: 'id argument 3' } },
      ],
    },
    {
      code: lines(
        IMPORTS,
        FORWARDS_ID,
        'export class Orders {',
        '  private events = new Publisher(this.js);',
        '  constructor(private js: JetStreamClient) {}',
        "  placed(order: unknown) { return this.events.publishEvent('orders.placed', order); }",
        '}',
      ),
      errors: [{ messageId: 'forwardedWithoutMsgId', line: 11, column: 47 }],
    },
    {
      code: lines(
        IMPORTS,
        READS_OPTION,
        "export const go = (js: JetStreamClient, data: unknown) => publishTo(js, 'a', data, { stream: 'S' });",
      ),
      errors: [{ messageId: 'forwardedWithoutMsgId', line: 5, column: 59 }],
    },
    {
      code: lines(
        IMPORTS,
        FORWARDS_ID,
        "export const go = (js: JetStreamClient, data: unknown) => new Publisher(js).publishEvent('a', data);",
      ),
      errors: [
        { messageId: 'forwardedWithoutMsgId', line: 8, column: 77, data: { helper: 'Publisher.publishEvent', argument: 'id argument 3' } },
      ],
    },
    {
      code: lines(IMPORTS, MERGES_DEFAULTS, "export const go = (nc: NatsConnection, data: unknown) => publishEvent(nc, 'a', data);"),
      errors: [
        { messageId: 'forwardedWithoutMsgId', line: 6, column: 58, data: { helper: 'publishEvent', argument: 'options argument 4' } },
      ],
    },
    {
      code: lines(
        IMPORTS,
        "import { randomUUID } from 'node:crypto';",
        FORWARDS_ID,
        "export const go = (js: JetStreamClient, data: unknown) => { const p = new Publisher(js); return p.publishEvent('a', data, randomUUID()); };",
      ),
      errors: [{ messageId: 'randomMsgId', line: 9, column: 123, data: { value: 'randomUUID()' } }],
    },
    {
      code: lines(
        IMPORTS,
        "import { v4 as uuidv4 } from 'uuid';",
        FORWARDS_OPTIONS,
        "export const go = (nc: NatsConnection, data: unknown) => publishEvent(nc, 'a', data, { msgID: `a-${uuidv4()}` });",
      ),
      errors: [{ messageId: 'randomMsgId', line: 6, column: 95, data: { value: '`a-${uuidv4()}`' } }],
    },
    {
      code: lines(
        IMPORTS,
        READS_OPTION,
        "export const go = (js: JetStreamClient, data: unknown) => publishTo(js, 'a', data, { msgId: String(Date.now()) });",
      ),
      errors: [{ messageId: 'randomMsgId', line: 5, column: 93, data: { value: 'String(Date.now())' } }],
    },
  ],
});
