import { expect, test } from 'vitest';
import { Linter } from 'eslint';
import tsParser from '@typescript-eslint/parser';
import { jsRuleTester, ruleTester } from './rule-tester.js';
import {
  requireJetStreamMsgId,
  type RequireJetStreamMsgIdFacts,
  type RequireJetStreamMsgIdMessageIds,
} from '../../rules/require-jetstream-msg-id.js';
import type { Finding } from '../../rules/utils/create-rule.js';

const lines = (...l: string[]) => l.join('\n');

// @typescript-eslint/rule-tester carries its own copy of @typescript-eslint/utils; the rule is the same object.
const rule = requireJetStreamMsgId as unknown as Parameters<typeof ruleTester.run<RequireJetStreamMsgIdMessageIds, readonly unknown[]>>[1];

const V2 = "import { connect } from 'nats';";
const V3 = "import { jetstream } from '@nats-io/jetstream';";
// CommonJS scope (where `require` is a global); rule-tester's types only know parserOptions.
const COMMONJS = { sourceType: 'commonjs' } as never;

ruleTester.run('require-jetstream-msg-id', rule, {
  valid: [
    // names that only contain the word are not a publish of the context
    lines(V2, 'const js = (await connect()).jetstream();', "js.republish('s', data);", "js['publishing']('s', data);"),
    // v2 with msgID
    lines(V2, 'const nc = await connect();', 'const js = nc.jetstream();', "await js.publish('orders', data, { msgID: String(row.id) });"),
    // v3 with msgID
    lines(
      V3,
      "import { connect } from '@nats-io/transport-node';",
      'const js = jetstream(await connect());',
      "await js.publish('orders', data, { msgID: id, timeout: 5000 });",
    ),
    // core NATS publish is not JetStream
    lines(V2, 'const nc = await connect();', "nc.publish('orders', data);"),
    lines(
      V3,
      "import { connect } from '@nats-io/transport-node';",
      'const nc = await connect();',
      'const js = jetstream(nc);',
      "nc.publish('orders', data);",
    ),
    // options the rule cannot see into
    lines(
      "import type { JetStreamClient } from 'nats';",
      'export function send(js: JetStreamClient, opts: object) {',
      "  return js.publish('orders', data, opts);",
      '}',
    ),
    lines(V2, 'const js = (await connect()).jetstream();', "js.publish('orders', data, optionsFor(row));"),
    lines(V2, 'const js = (await connect()).jetstream();', "js.publish('orders', data, { ...base });"),
    lines(V2, 'const js = (await connect()).jetstream();', 'js.publish(...args);'),
    lines(
      V2,
      'const js = (await connect()).jetstream();',
      'const opts = {};',
      'Object.assign(opts, { msgID: id });',
      "js.publish('orders', data, opts);",
    ),
    // a const options object that has msgID
    lines(V2, 'const js = (await connect()).jetstream();', 'const opts = { msgID: outboxId };', "js.publish('orders', data, opts);"),
    // computed key
    lines(V2, 'const js = (await connect()).jetstream();', "js.publish('orders', data, { ['msgID']: outboxId });"),
    // not NATS: no NATS import, a local `jetstream`, an unrelated publish
    lines('const js = client.jetstream();', "js.publish('orders', data);"),
    lines('function jetstream(x) { return x; }', "jetstream(nc).publish('orders', data);"),
    lines("import { jetstream } from './bus';", "jetstream(nc).publish('orders', data);"),
    lines(V2, "emitter.publish('orders', data);"),
    lines("const { jetstream } = require('./bus');", "jetstream(nc).publish('orders', data);"),
    lines(V2, 'const nc = await connect();', 'class Bus {', '  js = nc;', "  send() { this.js.publish('orders', data); }", '}'),
  ],
  invalid: [
    // v2, no options, nothing in scope to suggest
    {
      code: lines(V2, 'const nc = await connect();', 'const js = nc.jetstream();', "await js.publish('orders', data);"),
      errors: [{ messageId: 'missingMsgId', line: 4, column: 10, endLine: 4, endColumn: 17, suggestions: [] }],
    },
    // v2, an outbox row in scope
    {
      code: lines(
        V2,
        'const js = (await connect()).jetstream();',
        'for (const row of rows) {',
        '  await js.publish(row.subject, row.payload);',
        '}',
      ),
      errors: [
        {
          messageId: 'missingMsgId',
          line: 4,
          column: 12,
          suggestions: [
            {
              messageId: 'addMsgId',
              data: { id: 'row.id' },
              output: lines(
                V2,
                'const js = (await connect()).jetstream();',
                'for (const row of rows) {',
                '  await js.publish(row.subject, row.payload, { msgID: String(row.id) });',
                '}',
              ),
            },
          ],
        },
      ],
    },
    // v3 jetstream(nc) with a transport-node connection
    {
      code: lines(
        V3,
        "import { connect } from '@nats-io/transport-node';",
        'const js = jetstream(await connect());',
        "js.publish('orders', data);",
      ),
      errors: [{ messageId: 'missingMsgId', line: 4, column: 4 }],
    },
    // a context kept per connection in a cache and destructured back out (its origin is the cache)
    {
      code: lines(
        V2,
        'const links = new Map();',
        'export async function send(url, subject, envelope) {',
        '  const { js } = links.get(url);',
        '  await js.publish(subject, encode(envelope));',
        '}',
      ),
      errors: [{ messageId: 'missingMsgId', line: 5, column: 12 }],
    },
    // v3 aliased import
    {
      code: lines(
        "import { jetstream as openStream } from '@nats-io/jetstream';",
        'const stream = openStream(nc);',
        "stream.publish('orders', data);",
      ),
      errors: [{ messageId: 'missingMsgId', line: 3, column: 8 }],
    },
    // v3 namespace import, called inline
    {
      code: lines("import * as JS from '@nats-io/jetstream';", "JS.jetstream(nc).publish('orders', data);"),
      errors: [{ messageId: 'missingMsgId', line: 2, column: 18 }],
    },
    // options object without msgID: reported on the object, suggestion appends
    {
      code: lines(
        V3,
        'export async function emit(nc, event) {',
        "  await jetstream(nc).publish('events', encode(event), { timeout: 5000 });",
        '}',
      ),
      errors: [
        {
          messageId: 'optionsWithoutMsgId',
          line: 3,
          column: 56,
          endColumn: 73,
          suggestions: [
            {
              messageId: 'addMsgId',
              data: { id: 'event.id' },
              output: lines(
                V3,
                'export async function emit(nc, event) {',
                "  await jetstream(nc).publish('events', encode(event), { timeout: 5000, msgID: String(event.id) });",
                '}',
              ),
            },
          ],
        },
      ],
    },
    // empty options object is replaced
    {
      code: lines(V2, 'const js = (await connect()).jetstream();', 'const outboxId = next();', "js.publish('orders', data, {});"),
      errors: [
        {
          messageId: 'optionsWithoutMsgId',
          line: 4,
          column: 28,
          suggestions: [
            {
              messageId: 'addMsgId',
              data: { id: 'outboxId' },
              output: lines(
                V2,
                'const js = (await connect()).jetstream();',
                'const outboxId = next();',
                "js.publish('orders', data, { msgID: String(outboxId) });",
              ),
            },
          ],
        },
      ],
    },
    // `undefined` options are replaced
    {
      code: lines(V2, 'const js = (await connect()).jetstream();', 'const outboxId = next();', "js.publish('orders', data, undefined);"),
      errors: [
        {
          messageId: 'missingMsgId',
          line: 4,
          column: 4,
          suggestions: [
            {
              messageId: 'addMsgId',
              data: { id: 'outboxId' },
              output: lines(
                V2,
                'const js = (await connect()).jetstream();',
                'const outboxId = next();',
                "js.publish('orders', data, { msgID: String(outboxId) });",
              ),
            },
          ],
        },
      ],
    },
    // only a subject: the payload slot is filled with undefined
    {
      code: lines(V2, 'const js = (await connect()).jetstream();', 'const outboxId = next();', "js.publish('orders');"),
      errors: [
        {
          messageId: 'missingMsgId',
          line: 4,
          column: 4,
          suggestions: [
            {
              messageId: 'addMsgId',
              data: { id: 'outboxId' },
              output: lines(
                V2,
                'const js = (await connect()).jetstream();',
                'const outboxId = next();',
                "js.publish('orders', undefined, { msgID: String(outboxId) });",
              ),
            },
          ],
        },
      ],
    },
    // a named const options object without msgID: reported on the name, no suggestion
    {
      code: lines(
        V2,
        'const js = (await connect()).jetstream();',
        'const opts = { timeout: 5000 };',
        'const outboxId = next();',
        "js.publish('orders', data, opts);",
      ),
      errors: [{ messageId: 'optionsWithoutMsgId', line: 5, column: 28, endColumn: 32, suggestions: [] }],
    },
    // class field assigned in the constructor (v2)
    {
      code: lines(
        V2,
        'export class Publisher {',
        '  async start() {',
        '    this.nc = await connect();',
        '    this.js = this.nc.jetstream();',
        '  }',
        '  send(event) {',
        "    return this.js.publish('events', encode(event));",
        '  }',
        '}',
      ),
      errors: [
        {
          messageId: 'missingMsgId',
          line: 8,
          column: 20,
          suggestions: [
            {
              messageId: 'addMsgId',
              data: { id: 'event.id' },
              output: lines(
                V2,
                'export class Publisher {',
                '  async start() {',
                '    this.nc = await connect();',
                '    this.js = this.nc.jetstream();',
                '  }',
                '  send(event) {',
                "    return this.js.publish('events', encode(event), { msgID: String(event.id) });",
                '  }',
                '}',
              ),
            },
          ],
        },
      ],
    },
    // class property initialised with v3 jetstream()
    {
      code: lines(
        V3,
        'class Relay {',
        '  private js = jetstream(this.nc);',
        '  constructor(private readonly nc: unknown) {}',
        '  send(subject: string, data: Uint8Array) { return this.js.publish(subject, data); }',
        '}',
      ),
      errors: [{ messageId: 'missingMsgId', line: 5, column: 60 }],
    },
    // private #field
    {
      code: lines(V3, 'class Relay {', '  #js = jetstream(nc);', "  send(data) { return this.#js.publish('s', data, { headers }); }", '}'),
      errors: [{ messageId: 'optionsWithoutMsgId', line: 4, column: 51 }],
    },
    // constructor parameter property typed JetStreamClient (NestJS style)
    {
      code: lines(
        "import type { JetStreamClient } from 'nats';",
        'export class OrdersService {',
        '  constructor(private readonly js: JetStreamClient) {}',
        '  async placed(order: { id: string }) {',
        "    await this.js.publish('orders.placed', JSON.stringify(order));",
        '  }',
        '}',
      ),
      errors: [{ messageId: 'missingMsgId', line: 5, column: 19 }],
    },
    // destructured from `this`
    {
      code: lines(
        V2,
        'class Relay {',
        '  constructor(nc) { this.js = nc.jetstream(); }',
        '  send(data) {',
        '    const { js } = this;',
        "    return js.publish('s', data);",
        '  }',
        '}',
      ),
      errors: [{ messageId: 'missingMsgId', line: 6, column: 15 }],
    },
    // destructured with a rename from an object literal
    {
      code: lines(
        V2,
        'const nc = await connect();',
        'const clients = { core: nc, js: nc.jetstream() };',
        'const { js: stream } = clients;',
        "stream.publish('s', data);",
      ),
      errors: [{ messageId: 'missingMsgId', line: 5, column: 8 }],
    },
    // inline nc.jetstream().publish
    {
      code: lines(V2, 'const nc = await connect();', "nc.jetstream().publish('s', data);"),
      errors: [{ messageId: 'missingMsgId', line: 3, column: 16 }],
    },
    // optional chaining
    {
      code: lines(V2, 'let js: any;', 'js = (await connect()).jetstream();', "js?.publish('s', data);"),
      errors: [{ messageId: 'missingMsgId', line: 4, column: 5 }],
    },
    // a typed parameter, event in scope
    {
      code: lines(
        "import type { JetStreamClient } from '@nats-io/jetstream';",
        'export async function emit(js: JetStreamClient, event: { id: number }) {',
        "  await js.publish('events', JSON.stringify(event));",
        '}',
      ),
      errors: [
        {
          messageId: 'missingMsgId',
          line: 3,
          column: 12,
          suggestions: [
            {
              messageId: 'addMsgId',
              data: { id: 'event.id' },
              output: lines(
                "import type { JetStreamClient } from '@nats-io/jetstream';",
                'export async function emit(js: JetStreamClient, event: { id: number }) {',
                "  await js.publish('events', JSON.stringify(event), { msgID: String(event.id) });",
                '}',
              ),
            },
          ],
        },
      ],
    },
    // namespace type annotation
    {
      code: lines(
        "import type * as nats from 'nats';",
        'export function emit(js: nats.JetStreamClient | undefined) {',
        "  return js!.publish('events');",
        '}',
      ),
      errors: [{ messageId: 'missingMsgId', line: 3, column: 14 }],
    },
    // two equally good ids in scope: no suggestion
    {
      code: lines(V2, 'const js = (await connect()).jetstream();', 'function both(row, event) {', "  return js.publish('s', data);", '}'),
      errors: [{ messageId: 'missingMsgId', line: 4, column: 13, suggestions: [] }],
    },
    // a direct id beats a holder
    {
      code: lines(
        V2,
        'const js = (await connect()).jetstream();',
        'function send(row) {',
        '  const { id } = row;',
        "  return js.publish('s', row.payload);",
        '}',
      ),
      errors: [
        {
          messageId: 'missingMsgId',
          line: 5,
          column: 13,
          suggestions: [
            {
              messageId: 'addMsgId',
              data: { id: 'id' },
              output: lines(
                V2,
                'const js = (await connect()).jetstream();',
                'function send(row) {',
                '  const { id } = row;',
                "  return js.publish('s', row.payload, { msgID: String(id) });",
                '}',
              ),
            },
          ],
        },
      ],
    },
    // type assertion and computed member
    {
      code: lines(
        "import type { JetStreamClient } from 'nats';",
        'declare const client: unknown;',
        "(client as JetStreamClient)['publish']('s', data);",
      ),
      errors: [{ messageId: 'missingMsgId', line: 3, column: 29 }],
    },
    // a non-null assertion and a computed member written as a template: still a call of `publish`
    {
      code: lines(V2, 'const js = (await connect()).jetstream();', "js![`publish`]('s', data);"),
      errors: [{ messageId: 'missingMsgId', line: 3, column: 5, endColumn: 14 }],
    },
    // alias of a context
    {
      code: lines(V2, 'const js = (await connect()).jetstream();', 'const bus = js;', "bus.publish('s', data);"),
      errors: [{ messageId: 'missingMsgId', line: 4, column: 5 }],
    },
    // a subscription message in scope offers msg.id
    {
      code: lines(
        V2,
        'const nc = await connect();',
        'const js = nc.jetstream();',
        "for await (const msg of nc.subscribe('in')) {",
        "  await js.publish('out', msg.data);",
        '}',
      ),
      errors: [
        {
          messageId: 'missingMsgId',
          line: 5,
          column: 12,
          suggestions: [
            {
              messageId: 'addMsgId',
              data: { id: 'msg.id' },
              output: lines(
                V2,
                'const nc = await connect();',
                'const js = nc.jetstream();',
                "for await (const msg of nc.subscribe('in')) {",
                "  await js.publish('out', msg.data, { msgID: String(msg.id) });",
                '}',
              ),
            },
          ],
        },
      ],
    },
    // an injected connection typed NatsConnection
    {
      code: lines(
        "import type { NatsConnection } from 'nats';",
        'export class Bus {',
        '  constructor(private nc: NatsConnection) {}',
        "  send() { return this.nc.jetstream().publish('s'); }",
        '}',
      ),
      errors: [{ messageId: 'missingMsgId', line: 4, column: 39 }],
    },
    // multi-line options object, trailing comma kept
    {
      code: lines(
        V2,
        'const js = (await connect()).jetstream();',
        'export async function relay(row) {',
        "  await js.publish('s', row.payload, {",
        '    timeout: 1000,',
        '  });',
        '}',
      ),
      errors: [
        {
          messageId: 'optionsWithoutMsgId',
          line: 4,
          column: 38,
          endLine: 6,
          endColumn: 4,
          suggestions: [
            {
              messageId: 'addMsgId',
              data: { id: 'row.id' },
              output: lines(
                V2,
                'const js = (await connect()).jetstream();',
                'export async function relay(row) {',
                "  await js.publish('s', row.payload, {",
                '    timeout: 1000, msgID: String(row.id),',
                '  });',
                '}',
              ),
            },
          ],
        },
      ],
    },
    // `require` in a file with no CommonJS globals declared (a TypeScript file)
    {
      code: lines("const { jetstream: open } = require('@nats-io/jetstream');", 'const js = open(nc);', "js.publish('orders', data);"),
      errors: [{ messageId: 'missingMsgId', line: 3, column: 4 }],
    },
    {
      code: lines("const nats = require('nats');", 'const nc = await nats.connect();', "nc.jetstream().publish('orders', data);"),
      errors: [{ messageId: 'missingMsgId', line: 3, column: 16 }],
    },
    // two publishes, each reported
    {
      code: lines(V3, 'const js = jetstream(nc);', "js.publish('a', x);", "js.publish('b', y, { msgID: 'b' });", "js.publish('c', z);"),
      errors: [
        { messageId: 'missingMsgId', line: 3, column: 4 },
        { messageId: 'missingMsgId', line: 5, column: 4 },
      ],
    },
  ],
});

jsRuleTester.run('require-jetstream-msg-id (JavaScript)', rule, {
  valid: [
    {
      code: lines("const { connect } = require('nats');", "connect().then((nc) => nc.publish('orders', data));"),
      languageOptions: COMMONJS,
    },
    {
      code: lines("const { jetstream } = require('@nats-io/jetstream');", "jetstream(nc).publish('orders', data, { msgID: row.id });"),
      languageOptions: COMMONJS,
    },
    // `require` that is not CommonJS's (a local function) is not an import
    {
      code: lines(
        'const require = (m) => m;',
        "const { jetstream } = require('@nats-io/jetstream');",
        "jetstream(nc).publish('orders', data);",
      ),
      languageOptions: COMMONJS,
    },
  ],
  invalid: [
    // require, destructured
    {
      code: lines("const { jetstream } = require('@nats-io/jetstream');", 'const js = jetstream(nc);', "js.publish('orders', data);"),
      languageOptions: COMMONJS,
      errors: [{ messageId: 'missingMsgId', line: 3, column: 4 }],
    },
    // require as a namespace (v2)
    {
      code: lines(
        "const nats = require('nats');",
        'async function main() {',
        '  const nc = await nats.connect();',
        '  const js = nc.jetstream();',
        "  js.publish('orders', data);",
        '}',
      ),
      languageOptions: COMMONJS,
      errors: [{ messageId: 'missingMsgId', line: 5, column: 6 }],
    },
    // class field in plain JS
    {
      code: lines(
        "import { jetstream } from '@nats-io/jetstream';",
        'export class Relay {',
        '  js = jetstream(this.nc);',
        '  async drain(rows) {',
        '    for (const row of rows) await this.js.publish(row.subject, row.payload, { timeout: 500 });',
        '  }',
        '}',
      ),
      errors: [
        {
          messageId: 'optionsWithoutMsgId',
          line: 5,
          column: 77,
          suggestions: [
            {
              messageId: 'addMsgId',
              data: { id: 'row.id' },
              output: lines(
                "import { jetstream } from '@nats-io/jetstream';",
                'export class Relay {',
                '  js = jetstream(this.nc);',
                '  async drain(rows) {',
                '    for (const row of rows) await this.js.publish(row.subject, row.payload, { timeout: 500, msgID: String(row.id) });',
                '  }',
                '}',
              ),
            },
          ],
        },
      ],
    },
  ],
});

/** The findings `detect` hands to the codemod, through ESLint's Linter. */
function findings(code: string): Finding<string, RequireJetStreamMsgIdFacts>[] {
  const found: Finding<string, RequireJetStreamMsgIdFacts>[] = [];
  const linter = new Linter({ configType: 'flat' });
  const plugin = {
    rules: {
      probe: {
        meta: requireJetStreamMsgId.meta,
        create: (context: never) => requireJetStreamMsgId.detect(context, (f) => found.push(f)),
      },
    },
  };
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tsParser as never },
        plugins: { t: plugin as never },
        rules: { 't/probe': 'error' },
      },
    ],
    'x.ts',
  );
  expect(messages.filter((m) => m.fatal)).toEqual([]);
  return found;
}

test('facts carry the call, the options object and the candidate id for the codemod', () => {
  const code = lines(
    V2,
    'const js = (await connect()).jetstream();',
    'for (const row of rows) {',
    '  await js.publish(row.subject, row.payload, { timeout: 5 });',
    '}',
  );
  const [finding, ...rest] = findings(code);
  expect(rest).toEqual([]);
  expect(finding?.facts.api).toBe('nats-v2');
  expect(finding?.facts.call.type).toBe('CallExpression');
  expect(code.slice(...(finding!.facts.call.range as [number, number]))).toBe('js.publish(row.subject, row.payload, { timeout: 5 })');
  expect(finding?.facts.optionsObject?.type).toBe('ObjectExpression');
  expect(finding?.facts.options).toBe(finding?.facts.optionsObject);
  expect(finding?.facts.optionsIndex).toBe(2);
  expect(finding?.facts.candidateId).toBe('row.id');
});

test('facts without options or an id in scope', () => {
  const [finding] = findings(lines(V3, "jetstream(nc).publish('s');"));
  expect(finding?.facts.api).toBe('nats-v3');
  expect(finding?.facts.options).toBeUndefined();
  expect(finding?.facts.optionsObject).toBeUndefined();
  expect(finding?.facts.candidateId).toBeUndefined();
});

test('never throws on odd input', () => {
  const odd = [
    lines(V2, 'const { a: { b: js } } = { a: { b: (await connect()).jetstream() } };', "js.publish('s');"),
    lines(V2, 'const { js } = js;', "js.publish('s');"),
    lines(V2, 'let js = js2; let js2 = js;', "js.publish('s');"),
    lines(V2, 'class A { [k] = 1; m() { this[k].publish(); } }'),
    lines(V2, 'publish();', '(0, x).publish();', "''.publish();"),
  ];
  for (const code of odd) expect(() => findings(code)).not.toThrow();
  expect(findings(odd[0]!)).toHaveLength(1);
});
