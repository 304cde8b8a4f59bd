// require-jetstream-msg-id when the file that publishes imports nothing from NATS: the context
// comes from a project helper, a project module's export, an injected field or a parameter
// typed with a re-exported `JetStreamClient`. And the publishes that must stay quiet there:
// core NATS, Redis, in-process pub/sub, services that wrap a context, forwarded options.
import { ruleTester, jsRuleTester } from '../rule-tester.js';
import { requireJetStreamMsgId, type RequireJetStreamMsgIdMessageIds } from '../../../rules/require-jetstream-msg-id.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireJetStreamMsgId as unknown as Parameters<typeof ruleTester.run<RequireJetStreamMsgIdMessageIds, readonly unknown[]>>[1];

ruleTester.run('require-jetstream-msg-id: project helpers and injection', rule, {
  valid: [
    // a helper's context, with msgID
    lines(
      "import { getJetStreamClient } from '../bus/streams';",
      'export async function emitInvoice(invoice: { id: string }) {',
      "  await getJetStreamClient().publish('billing.invoice', encode(invoice), { msgID: invoice.id });",
      '}',
    ),
    // options from the caller: they may carry msgID
    lines(
      "import { js } from '@shop/nats';",
      'export const send = (subject: string, body: Uint8Array, options?: object) => js.publish(subject, body, options);',
    ),
    // core NATS from a project module: no stream, no dedup
    lines("import { nc } from '@shop/nats';", "nc.publish('audit.login', payload);"),
    lines("import { getNatsConnection } from './nats';", "getNatsConnection().publish('audit.login', payload);"),
    // Redis and in-process pub/sub in a file that also talks to NATS
    lines(
      "import { getJetStream } from './jetstream';",
      'export class Notifier {',
      '  constructor(private readonly redis: Redis, private readonly pubsub: PubSub, private readonly events: EventEmitter) {}',
      '  async notify(id: string) {',
      "    await this.redis.publish('user-updated', id);",
      "    await this.pubsub.publish('USER_UPDATED', { id });",
      "    this.events.publish('user-updated', id);",
      "    await getJetStream().publish('users.updated', encode(id), { msgID: id });",
      '  }',
      '}',
    ),
    // a service that wraps a context sets msgID (or not) where it calls the context
    lines(
      "import { JetStreamService } from '../nats/jetstream.service';",
      'export class Orders {',
      '  constructor(private readonly jetStreamService: JetStreamService) {}',
      "  placed(order: Order) { return this.jetStreamService.publish('orders.placed', order); }",
      '}',
    ),
    // a local value the file made, not visibly a context, named `js`
    lines("import { makeBus } from './nats-bus';", 'const js = makeBus();', "js.publish('orders', data);"),
    // a file that names neither NATS nor JetStream
    lines('export function relay(js: Client) {', "  return js.publish('orders', data);", '}'),
  ],
  invalid: [
    // a helper from a project module (`getJetStream()`), kept in a variable
    {
      code: lines(
        "import { getJetStream } from './streams';",
        'export async function publishEvent(subject: string, event: unknown) {',
        '  const stream = getJetStream();',
        '  return stream.publish(subject, encode(event));',
        '}',
      ),
      errors: [
        {
          messageId: 'missingMsgId',
          line: 4,
          column: 17,
          endLine: 4,
          endColumn: 24,
          suggestions: [
            {
              messageId: 'addMsgId',
              output: lines(
                "import { getJetStream } from './streams';",
                'export async function publishEvent(subject: string, event: unknown) {',
                '  const stream = getJetStream();',
                '  return stream.publish(subject, encode(event), { msgID: String(event.id) });',
                '}',
              ),
            },
          ],
        },
      ],
    },
    // a context exported by a project alias module
    {
      code: lines(
        "import { js } from '@shop/nats';",
        'export const emit = async (subject: string, data: Uint8Array) => {',
        '  await js.publish(subject, data);',
        '};',
      ),
      errors: [{ messageId: 'missingMsgId', line: 3, column: 12 }],
    },
    // injected (NestJS): a constructor parameter typed with a re-exported JetStreamClient
    {
      code: lines(
        "import type { JetStreamClient } from '../messaging/types';",
        'export class ShipmentEvents {',
        '  constructor(private readonly stream: JetStreamClient) {}',
        '  async shipped(shipmentId: string) {',
        "    await this.stream.publish('shipments.shipped', encode(shipmentId));",
        '  }',
        '}',
      ),
      errors: [{ messageId: 'missingMsgId', line: 5, column: 23 }],
    },
    // injected by a framework: a field set nowhere in the class, named like a context
    {
      code: lines(
        "import { Inject } from '@nestjs/common';",
        "import { JETSTREAM } from './nats.constants';",
        'export class AuditTrail {',
        '  @Inject(JETSTREAM) private readonly js!: unknown;',
        "  record(entry: Entry) { return this.js.publish('audit', encode(entry)); }",
        '}',
      ),
      errors: [
        {
          messageId: 'missingMsgId',
          line: 5,
          column: 41,
          suggestions: [
            {
              messageId: 'addMsgId',
              output: lines(
                "import { Inject } from '@nestjs/common';",
                "import { JETSTREAM } from './nats.constants';",
                'export class AuditTrail {',
                '  @Inject(JETSTREAM) private readonly js!: unknown;',
                "  record(entry: Entry) { return this.js.publish('audit', encode(entry), { msgID: String(entry.id) }); }",
                '}',
              ),
            },
          ],
        },
      ],
    },
    // a dead-letter republish in a retry loop: headers only
    {
      code: lines(
        "import { headers as natsHeaders } from 'nats';",
        'export async function toDeadLetters(provider: Provider, subject: string, data: Uint8Array) {',
        '  const hdrs = natsHeaders();',
        '  for (let attempt = 0; attempt < 3; attempt++) {',
        '    try {',
        '      await provider.getJetStreamClient().publish(subject, data, { headers: hdrs });',
        '      return;',
        '    } catch {}',
        '  }',
        '}',
      ),
      errors: [{ messageId: 'optionsWithoutMsgId', line: 6, column: 66, endColumn: 83 }],
    },
    // `expect` makes it a JetStream publish whatever the receiver is called
    {
      code: lines(
        "import { natsHeaders } from '../nats/headers';",
        'export async function park(broker: Broker, body: Uint8Array) {',
        "  await broker.publish('parked', body, { headers: natsHeaders(), expect: { streamName: 'PARKED' } });",
        '}',
      ),
      errors: [{ messageId: 'optionsWithoutMsgId', line: 3, column: 40 }],
    },
    // a parameter named like a context in a file about JetStream
    {
      code: lines(
        "import type { Row } from '../outbox/jetstream-outbox';",
        'export function relay(jsClient, rows: Row[]) {',
        "  for (const r of rows) jsClient.publish('outbox', r.body);",
        '}',
      ),
      errors: [{ messageId: 'missingMsgId', line: 3, column: 34 }],
    },
  ],
});

jsRuleTester.run('require-jetstream-msg-id: project helpers (JavaScript)', rule, {
  valid: [
    {
      code: lines("const { getJetStream } = require('./nats');", "getJetStream().publish('a', data, { msgID: row.id });"),
      languageOptions: { sourceType: 'commonjs' } as never,
    },
  ],
  invalid: [
    {
      code: lines(
        "const { getJetStream } = require('./nats');",
        'module.exports = (subject, data) => getJetStream().publish(subject, data);',
      ),
      languageOptions: { sourceType: 'commonjs' } as never,
      errors: [{ messageId: 'missingMsgId', line: 2, column: 52 }],
    },
  ],
});
