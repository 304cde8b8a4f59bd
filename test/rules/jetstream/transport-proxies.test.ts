// require-jetstream-msg-id on a NestJS JetStream transport's client proxy: `emit(pattern, data)`
// publishes to a stream, and carries a message id only when `data` is a record built with one.
// A plain payload, or a record whose builder never gets the id, is stored again on a retry.
import { ruleTester } from '../rule-tester.js';
import { requireJetStreamMsgId, type RequireJetStreamMsgIdMessageIds } from '../../../rules/require-jetstream-msg-id.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireJetStreamMsgId as unknown as Parameters<typeof ruleTester.run<RequireJetStreamMsgIdMessageIds, readonly unknown[]>>[1];

const TRANSPORT = '@nestjs-plugins/nestjs-nats-jetstream-transport';
const IMPORTS = `import { NatsJetStreamClientProxy, NatsJetStreamRecordBuilder, NatsJetStreamRecord } from '${TRANSPORT}';`;
const data = { proxy: 'NatsJetStreamClientProxy', builder: 'NatsJetStreamRecordBuilder', setter: 'setMsgId' };
const emit = (line: number, column: number) => ({ messageId: 'proxyEmitWithoutMsgId' as const, line, column, data });

/** A service with the proxy injected through its constructor, and `body` as one method's statements. */
const service = (...body: string[]) =>
  lines(
    IMPORTS,
    'export class InvoiceService {',
    '  constructor(private readonly bus: NatsJetStreamClientProxy) {}',
    '  issue(invoice: { id: string; total: number }) {',
    ...body.map((statement) => `    ${statement}`),
    '  }',
    '}',
  );

ruleTester.run('require-jetstream-msg-id: NestJS transport client proxies', rule, {
  valid: [
    // a record built with the id
    service(
      'const builder = new NatsJetStreamRecordBuilder(invoice);',
      'builder.setMsgId(invoice.id);',
      "this.bus.emit('billing.invoice.issued', builder.build()).subscribe();",
    ),
    service(
      'const builder = new NatsJetStreamRecordBuilder(invoice);',
      'builder.setMsgId(`invoice-${invoice.id}`);',
      'const record = builder.build();',
      "return this.bus.emit('billing.invoice.issued', record);",
    ),
    service("this.bus.emit('billing.invoice.issued', new NatsJetStreamRecord(invoice, { msgID: invoice.id }));"),
    // data the file cannot see into: the caller's, a helper's record, a builder handed to a helper
    lines(
      IMPORTS,
      'export class Relay {',
      '  constructor(private readonly bus: NatsJetStreamClientProxy) {}',
      '  forward(pattern: string, record: unknown) {',
      '    return this.bus.emit(pattern, record);',
      '  }',
      '}',
    ),
    service("this.bus.emit('billing.invoice.issued', toRecord(invoice));"),
    service(
      'const builder = new NatsJetStreamRecordBuilder(invoice);',
      'stampIdentity(builder, invoice);',
      "this.bus.emit('billing.invoice.issued', builder.build());",
    ),
    // request/reply through the same proxy is not a publish to a stream
    service("return this.bus.send({ cmd: 'total' }, { id: invoice.id });"),
    // NestJS's own NATS client is core NATS (no stream), and an EventEmitter's emit is in-process
    lines(
      "import { ClientProxy } from '@nestjs/microservices';",
      'export class Audit {',
      '  constructor(private readonly client: ClientProxy) {}',
      "  login(id: string) { this.client.emit('audit.login', { id }); }",
      '}',
    ),
    lines(
      IMPORTS,
      "import { EventEmitter2 } from '@nestjs/event-emitter';",
      'export class Local {',
      '  constructor(private readonly events: EventEmitter2, private readonly bus: NatsJetStreamClientProxy) {}',
      "  done(id: string) { this.events.emit('invoice.done', { id }); }",
      '}',
    ),
    // the proxy class named, but from somewhere else
    lines(
      "import { NatsJetStreamClientProxy } from './testing/fake-proxy';",
      'export const run = (bus: NatsJetStreamClientProxy) => bus.emit("x", { id: 1 });',
    ),
  ],
  invalid: [
    // a plain payload: no record, no id
    {
      code: service("this.bus.emit('billing.invoice.issued', { id: invoice.id, total: invoice.total }).subscribe();"),
      errors: [emit(5, 14)],
    },
    {
      code: service('const payload = { id: invoice.id };', "return this.bus.emit<void>('billing.invoice.issued', payload);"),
      errors: [emit(6, 21)],
    },
    // a record built without the id (headers and expectations are not one)
    {
      code: service(
        'const builder = new NatsJetStreamRecordBuilder(invoice);',
        "builder.setExpectations({ streamName: 'billing' });",
        "builder.appendHeader('x-tenant', 't1');",
        'const record = builder.build();',
        "this.bus.emit('billing.invoice.issued', record).subscribe();",
      ),
      errors: [emit(9, 14)],
    },
    { code: service("this.bus.emit('billing.invoice.issued', new NatsJetStreamRecord(invoice, { headers }));"), errors: [emit(5, 14)] },
    // the proxy as a parameter, a field and a local `new`, under an alias
    {
      code: lines(
        `import { NatsJetStreamClientProxy as Bus } from '${TRANSPORT}';`,
        "export const ship = (bus: Bus, id: string) => bus.emit('orders.shipped', { id });",
        'export class Outbox {',
        '  private readonly bus: Bus;',
        "  flush(row: { id: string }) { return this.bus.emit('orders.flushed', { id: row.id }); }",
        '}',
        "const local = new Bus({ connectionOptions: { servers: 'nats://nats:4222' } });",
        "local.emit('orders.warmed', []);",
      ),
      errors: [emit(2, 51), emit(5, 48), emit(8, 7)],
    },
  ],
});

// `NatsClient` of @alexy4744/nestjs-nats-jetstream-transporter publishes `emit` / `emitAsync` to
// JetStream with no message id, and no payload can carry one: every emit is reported.
const ALEXY = '@alexy4744/nestjs-nats-jetstream-transporter';
const never = (line: number, column: number) => ({
  messageId: 'proxyEmitNeverMsgId' as const,
  line,
  column,
  data: { proxy: 'NatsClient' },
});
/** A NestJS service holding the client in a field initialised with `new NatsClient(…)`; `body` is one method's statements. */
const natsService = (source: string, ...body: string[]) =>
  lines(
    `import { NatsClient } from '${source}';`,
    'export class NatsService {',
    "  protected readonly client = new NatsClient({ connection: { servers: ['nats://nats:4222'] } });",
    '  async publish(eventName: string, payload: unknown): Promise<void> {',
    ...body.map((statement) => `    ${statement}`),
    '  }',
    '}',
  );

ruleTester.run('require-jetstream-msg-id: a NestJS transport that sets no message id', rule, {
  valid: [
    // request/reply is not a publish to a stream
    natsService(ALEXY, 'await this.client.sendAsync(eventName, payload);'),
    // a `NatsClient` of another module (a project's own wrapper)
    natsService('./nats-client', 'this.client.emit(eventName, payload);'),
  ],
  invalid: [
    { code: natsService(ALEXY, 'this.client.emit(eventName, payload);'), errors: [never(5, 17)] },
    {
      code: natsService(
        ALEXY,
        'await this.client.emitAsync(eventName, { id: 1 });',
        "this.client.emit('merchants.store.updated', payload).subscribe();",
      ),
      errors: [never(5, 23), never(6, 17)],
    },
    // the client as a constructor parameter
    {
      code: lines(
        `import { NatsClient } from '${ALEXY}';`,
        'export class Stores {',
        '  constructor(private readonly nats: NatsClient) {}',
        "  deleted(store: { id: string }) { this.nats.emit('merchants.store.deleted', store); }",
        '}',
      ),
      errors: [never(4, 46)],
    },
  ],
});

// `NatsJetStreamClient`, the wrapper @nestjs-plugins/nestjs-nats-jetstream-transport exported in v1
// (before records), hands `emit`'s payload on as it is: no event it publishes has an id.
const wrapperNever = (line: number, column: number) => ({
  messageId: 'proxyEmitNeverMsgId' as const,
  line,
  column,
  data: { proxy: 'NatsJetStreamClient' },
});
/** A controller-called service holding the v1 wrapper as a constructor parameter property. */
const shipments = (source: string, ...body: string[]) =>
  lines(
    `import { NatsJetStreamClient } from '${source}';`,
    'export class ShipmentService {',
    '  constructor(private readonly events: NatsJetStreamClient) {}',
    '  dispatch(shipment: { id: string; carrier: string }) {',
    ...body.map((statement) => `    ${statement}`),
    '  }',
    '}',
  );

ruleTester.run('require-jetstream-msg-id: the v1 NatsJetStreamClient wrapper', rule, {
  valid: [
    // request/reply through the wrapper
    shipments(TRANSPORT, "return this.events.send({ cmd: 'eta' }, { id: shipment.id });"),
    // a class of that name from a project module
    shipments('./events/nats-jetstream-client', "this.events.emit('logistics.shipment.dispatched', shipment).subscribe();"),
  ],
  invalid: [
    {
      code: shipments(TRANSPORT, "this.events.emit('logistics.shipment.dispatched', { id: shipment.id }).subscribe();"),
      errors: [wrapperNever(5, 17)],
    },
    {
      // any payload, the caller's included: the wrapper has no way to carry an id
      code: shipments(TRANSPORT, "return this.events.emit('logistics.shipment.dispatched', shipment);"),
      errors: [wrapperNever(5, 24)],
    },
    {
      // imported next to the current proxy: each keeps its own transport
      code: lines(
        `import { NatsJetStreamClient, NatsJetStreamClientProxy } from '${TRANSPORT}';`,
        'export class Both {',
        '  constructor(private readonly v1: NatsJetStreamClient, private readonly v2: NatsJetStreamClientProxy) {}',
        '  go(order: { id: string }) {',
        "    this.v1.emit('orders.placed', order);",
        "    this.v2.emit('orders.placed', order);",
        "    this.v2.emit('orders.placed', { id: order.id });",
        '  }',
        '}',
      ),
      errors: [wrapperNever(5, 13), emit(7, 13)],
    },
  ],
});
