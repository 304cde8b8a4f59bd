// require-jetstream-msg-id: contexts made by `.jetstream()` on a connection the file cannot trace
// in a file that names NATS, and publishes through a helper from a package that the file hands a
// JetStream context and no message id.
import { jsRuleTester, ruleTester } from './rule-tester.js';
import { requireJetStreamMsgId, type RequireJetStreamMsgIdMessageIds } from '../../rules/require-jetstream-msg-id.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireJetStreamMsgId as unknown as Parameters<typeof ruleTester.run<RequireJetStreamMsgIdMessageIds, readonly unknown[]>>[1];

const PACKAGE_HELPER = "import { OrderCreatedPublisher } from '@acme/common';";
const WRAPPER = "import { natsWrapper } from '../nats-wrapper';";

ruleTester.run('require-jetstream-msg-id: connections and package helpers', rule, {
  valid: [
    // `.jetstream()` on a connection the file gets from a project class, publishing with msgID
    lines(
      "import { NatsClient } from './nats/connection';",
      'export async function raise(client: NatsClient, alert: { id: string }) {',
      '  const js = client.getConnection().jetstream();',
      "  await js.publish('alerts', JSON.stringify(alert), { msgID: alert.id });",
      '}',
    ),
    // the holder's connection in a file that imports NATS Streaming: a STAN client, no message id to set
    lines(
      "import type { Stan } from 'node-nats-streaming';",
      PACKAGE_HELPER,
      WRAPPER,
      'await new OrderCreatedPublisher(natsWrapper.client).publish({ id: order.id });',
    ),
    // a holder's connection handed to a class not named for a publisher
    lines("import { OrderMirror } from '@acme/common';", WRAPPER, 'await new OrderMirror(natsWrapper.client).publish({ id: order.id });'),
    // a holder the file makes itself, not a project module's
    lines(
      PACKAGE_HELPER,
      'const natsWrapper = makeWrapper();',
      'await new OrderCreatedPublisher(natsWrapper.client).publish({ id: order.id });',
    ),
    // a holder's member not named for a connection
    lines(PACKAGE_HELPER, WRAPPER, 'await new OrderCreatedPublisher(natsWrapper.logger).publish({ id: order.id });'),
    // the holder's connection, with the id handed in
    lines(PACKAGE_HELPER, WRAPPER, 'await new OrderCreatedPublisher(natsWrapper.client).publish(order, { msgId: order.id });'),
    // a connection handed to a publisher in a file of core NATS (a queue-group subscriber): no stream in sight
    lines(
      "import type { Msg } from 'nats';",
      "import { Listener, TicketUpdatedPublisher } from '@acme/common';",
      'export class OrderCreatedListener extends Listener {',
      '  async onMessage(data: { ticketId: string }, msg: Msg) {',
      '    await new TicketUpdatedPublisher(this.client).publish({ id: data.ticketId });',
      '  }',
      '}',
    ),
    // NATS Streaming: the client is not a NATS client module's, and has no message-id deduplication
    lines(
      "import type { Message, Stan } from 'node-nats-streaming';",
      "import { Listener, TicketUpdatedPublisher } from '@acme/common';",
      'export class OrderCreatedListener extends Listener {',
      "  durableName = 'tickets';",
      '  async onMessage(data: { ticketId: string }, msg: Message) {',
      '    await new TicketUpdatedPublisher(this.client).publish({ id: data.ticketId });',
      '  }',
      '}',
    ),
    // a connection handed to a class not named for a publisher, in a JetStream file
    lines(
      "import type { JsMsg } from 'nats';",
      "import { Listener, TicketMirror } from '@acme/common';",
      'export class OrderCreatedListener extends Listener {',
      '  async onMessage(data: { ticketId: string }, msg: JsMsg) {',
      '    await new TicketMirror(this.client).publish({ id: data.ticketId });',
      '  }',
      '}',
    ),
    // the connection is the file's own, made with no NATS connect the rule sees
    lines(
      "import type { JsMsg } from 'nats';",
      "import { TicketUpdatedPublisher } from '@acme/common';",
      'const client = makeLoopback();',
      'export const relay = (msg: JsMsg) => new TicketUpdatedPublisher(client).publish({ id: msg.seq });',
    ),
    // the call hands the helper a message id: an option, an id argument, a spread
    lines(PACKAGE_HELPER, WRAPPER, 'await new OrderCreatedPublisher(natsWrapper.js).publish(order, { msgId: order.id });'),
    lines(PACKAGE_HELPER, WRAPPER, 'await new OrderCreatedPublisher(natsWrapper.js).publish(eventId, order);'),
    lines(PACKAGE_HELPER, WRAPPER, 'await new OrderCreatedPublisher(natsWrapper.js).publish(...args);'),
    // options given to the helper when it is made may say how it makes an id
    lines(PACKAGE_HELPER, WRAPPER, "await new OrderCreatedPublisher(natsWrapper.js, { idFrom: 'id' }).publish(order);"),
    // a helper class of this file: its own publish is judged where it is written
    lines(
      "import type { JetStreamClient } from 'nats';",
      'class OrderCreatedPublisher {',
      '  constructor(private js: JetStreamClient) {}',
      "  publish(order: { id: string }) { return this.js.publish('orders', JSON.stringify(order), { msgID: order.id }); }",
      '}',
      'export const send = (js: JetStreamClient, order: { id: string }) => new OrderCreatedPublisher(js).publish(order);',
    ),
    // a playground at the top of the repository, run by hand against a local server
    {
      code: lines(
        "import { connect } from 'nats';",
        'const js = (await connect()).jetstream();',
        "await js.publish('ticket.created', 'hello', { expect: { streamName: 'test1' } });",
      ),
      filename: 'nats-test/src/publisher.ts',
    },
    // an example beside the package, run by hand to show the publish
    {
      code: lines(
        "import { connect } from 'nats';",
        'const js = (await connect()).jetstream();',
        "await js.publish('orders.created', JSON.stringify({ id: 1 }));",
      ),
      filename: 'packages/events/example/src/publish-event.ts',
    },
    // a variable given the helper more than once: which helper publishes is not known
    lines(
      PACKAGE_HELPER,
      WRAPPER,
      'let publisher = new OrderCreatedPublisher(natsWrapper.js);',
      'publisher = pickPublisher();',
      'await publisher.publish(order);',
    ),
  ],
  invalid: [
    // a folder so named deeper down is the service's own code
    {
      code: lines(
        "import { connect } from 'nats';",
        'const js = (await connect()).jetstream();',
        "export const assign = (variant: string) => js.publish('experiments.assigned', variant);",
      ),
      filename: 'src/features/ab-test/assign.ts',
      errors: [{ messageId: 'missingMsgId', line: 3, column: 47 }],
    },
    // a folder named for examples inside the source tree is the service's own code
    {
      code: lines(
        "import { connect } from 'nats';",
        'const js = (await connect()).jetstream();',
        "export const assign = (variant: string) => js.publish('experiments.assigned', variant);",
      ),
      filename: 'src/samples/assign.ts',
      errors: [{ messageId: 'missingMsgId', line: 3, column: 47 }],
    },
    // `.jetstream()` on a connection returned by a project class, in a file that names NATS but imports no NATS module
    {
      code: lines(
        "import { NatsClient } from './nats/connection';",
        'export class Alerts {',
        '  constructor(private natsClient: NatsClient) {}',
        '  async raise(alert: { patient: string }) {',
        '    const nc = this.natsClient.getConnection();',
        '    const js = nc.jetstream();',
        "    await js.publish('patient.alert.raised', JSON.stringify(alert));",
        '  }',
        '}',
      ),
      errors: [{ messageId: 'missingMsgId', line: 7, column: 14, suggestions: [] }],
    },
    // a package's publisher class made at the call with a context from the project's wrapper
    {
      code: lines(
        PACKAGE_HELPER,
        WRAPPER,
        'export async function created(order: { id: string; version: number }) {',
        '  await new OrderCreatedPublisher(natsWrapper.js).publish({ id: order.id, version: order.version });',
        '}',
      ),
      errors: [
        {
          messageId: 'helperWithoutMsgId',
          data: { helper: 'OrderCreatedPublisher', source: '@acme/common' },
          line: 4,
          column: 51,
          endColumn: 58,
          suggestions: [],
        },
      ],
    },
    // kept in a const, handed an injected `this.js` inside a JetStream listener
    {
      code: lines(
        "import type { JsMsg } from 'nats';",
        "import { Listener, TicketUpdatedPublisher } from '@acme/common';",
        'export class OrderCreatedListener extends Listener {',
        '  async onMessage(data: { ticketId: string }, msg: JsMsg) {',
        '    const publisher = new TicketUpdatedPublisher(this.js);',
        '    await publisher.publish({ id: data.ticketId });',
        '    msg.ack();',
        '  }',
        '}',
      ),
      errors: [{ messageId: 'helperWithoutMsgId', line: 6, column: 21 }],
    },
    // a package publisher handed the base listener's connection, in a listener of JetStream messages
    {
      code: lines(
        "import type { JsMsg } from 'nats';",
        "import { Listener, TicketUpdatedPublisher } from '@acme/common';",
        'export class OrderCreatedListener extends Listener {',
        '  async onMessage(data: { ticketId: string }, msg: JsMsg) {',
        '    await new TicketUpdatedPublisher(this.client).publish({ id: data.ticketId });',
        '    msg.ack();',
        '  }',
        '}',
      ),
      errors: [
        {
          messageId: 'helperOnConnectionWithoutMsgId',
          data: { helper: 'TicketUpdatedPublisher', source: '@acme/common' },
          line: 5,
          column: 51,
          endColumn: 58,
          suggestions: [],
        },
      ],
    },
    // the project's wrapper connection, in a file that names the stream it consumes
    {
      code: lines(
        "import { type Msg } from 'nats';",
        "import { OrderCancelledPublisher } from './publishers';",
        WRAPPER,
        "export const streamName = 'orders';",
        'export async function expired(msg: Msg, order: { id: string }) {',
        '  new OrderCancelledPublisher(natsWrapper.client).publish({ id: order.id });',
        '}',
      ),
      errors: [{ messageId: 'helperOnConnectionWithoutMsgId', line: 6, column: 51 }],
    },
    // the connection the project's holder keeps, in a file that shows neither JetStream nor NATS Streaming
    {
      code: lines(PACKAGE_HELPER, WRAPPER, 'await new OrderCreatedPublisher(natsWrapper.client).publish({ id: order.id });'),
      errors: [
        {
          messageId: 'helperOnHeldConnectionWithoutMsgId',
          data: { helper: 'OrderCreatedPublisher', source: '@acme/common' },
          line: 3,
          column: 53,
          endColumn: 60,
          suggestions: [],
        },
      ],
    },
    // kept in a const, handed the subject and the data, from a project module out of reach
    {
      code: lines(
        "import { OrderPublisher } from '../events/publishers';",
        "import { natsWrapper } from '../events/init';",
        'export async function created(order: { id: string; userId: string }) {',
        '  const publisher = new OrderPublisher(natsWrapper.Client);',
        "  publisher.publish('order.created', { id: order.id, userId: order.userId });",
        '}',
      ),
      errors: [
        {
          messageId: 'helperOnHeldConnectionWithoutMsgId',
          data: { helper: 'OrderPublisher', source: '../events/publishers' },
          line: 5,
          column: 13,
        },
      ],
    },
    // kept in a class field set when the module starts
    {
      code: lines(
        "import { connect, type JetStreamClient } from 'nats';",
        "import { EventPublisher } from '@acme/bus';",
        'export class Events {',
        '  private js!: JetStreamClient;',
        '  private publisher!: EventPublisher;',
        '  async onModuleInit() {',
        '    this.js = (await connect()).jetstream();',
        '    this.publisher = new EventPublisher(this.js);',
        '  }',
        '  paid(payment: { orderId: string }) {',
        "    return this.publisher.publish('payments.paid', payment);",
        '  }',
        '}',
      ),
      errors: [{ messageId: 'helperWithoutMsgId', line: 11, column: 27 }],
    },
  ],
});

jsRuleTester.run('require-jetstream-msg-id: package helpers in JavaScript', rule, {
  valid: [
    lines("import { Publisher } from '@acme/common';", 'new Publisher(stan).publish({ id: 1 });'),
    // a local function that returns a publisher is not an import
    lines("const { nats } = require('./nats');", 'const Publisher = makePublisher();', 'new Publisher(nats.js).publish(order);'),
    // the holder's connection, in a file that requires NATS Streaming
    lines(
      "const stan = require('node-nats-streaming');",
      "const { OrderPublisher } = require('@acme/common');",
      "const { natsWrapper } = require('./nats-wrapper');",
      'module.exports = (order) => new OrderPublisher(natsWrapper.client).publish(order);',
    ),
  ],
  invalid: [
    // the connection a required holder keeps, handed to a required publisher class
    {
      code: lines(
        "const { OrderPublisher } = require('@acme/common');",
        "const { natsWrapper } = require('./nats-wrapper');",
        'module.exports = (order) => new OrderPublisher(natsWrapper.client).publish(order);',
      ),
      errors: [{ messageId: 'helperOnHeldConnectionWithoutMsgId', line: 3, column: 68 }],
    },
    {
      code: lines(
        "const { Publisher } = require('@acme/common');",
        "const { nats } = require('./nats');",
        'module.exports = (order) => new Publisher(nats.js).publish(order);',
      ),
      errors: [{ messageId: 'helperWithoutMsgId', line: 3, column: 52 }],
    },
    {
      code: lines(
        "import { Publisher } from '@acme/common';",
        "import { nats } from './nats.js';",
        'export const send = (order) => new Publisher(nats.jsClient).publish(order);',
      ),
      errors: [{ messageId: 'helperWithoutMsgId', line: 3, column: 61 }],
    },
  ],
});
