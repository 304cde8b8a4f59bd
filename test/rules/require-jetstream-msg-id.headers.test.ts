// require-jetstream-msg-id: publish headers that carry `Nats-Msg-Id` themselves, built on a
// headers variable or by a helper one call away; headers built without it, or handed in from
// where the file cannot see them, leave the publish without an id.
import { ruleTester } from './rule-tester.js';
import { requireJetStreamMsgId, type RequireJetStreamMsgIdMessageIds } from '../../rules/require-jetstream-msg-id.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireJetStreamMsgId as unknown as Parameters<typeof ruleTester.run<RequireJetStreamMsgIdMessageIds, readonly unknown[]>>[1];

const IMPORTS = "import { headers, JsHeaders, type JetStreamClient } from 'nats';";

ruleTester.run('require-jetstream-msg-id: headers that carry the message id', rule, {
  valid: [
    // the header written on the variable handed as `headers`
    lines(
      IMPORTS,
      'export async function send(js: JetStreamClient, subject: string, payload: { key: string }) {',
      '  const h = headers();',
      "  h.set('Nats-Msg-Id', payload.key);",
      "  h.set('trace-id', 'x');",
      '  await js.publish(subject, JSON.stringify(payload), { headers: h });',
      '}',
    ),
    // written with `append`, under the client's constant, in another case
    lines(
      IMPORTS,
      'export async function send(js: JetStreamClient, subject: string, payload: { key: string }) {',
      '  const h = headers();',
      '  h.append(JsHeaders.MsgIdHdr, payload.key);',
      '  await js.publish(subject, JSON.stringify(payload), { headers: h });',
      '}',
    ),
    lines(
      IMPORTS,
      "const DEDUP_HEADER = 'nats-msg-id';",
      'export async function send(js: JetStreamClient, subject: string, payload: { key: string }) {',
      '  const h = headers();',
      '  h.set(DEDUP_HEADER, payload.key);',
      '  await js.publish(subject, JSON.stringify(payload), { headers: h, expect: { streamName: "S" } });',
      '}',
    ),
    // a function of the file builds them, at the call or through a variable
    lines(
      IMPORTS,
      'function dedupHeaders(key: string) {',
      '  const h = headers();',
      "  h.set('Nats-Msg-Id', key);",
      '  return h;',
      '}',
      'export async function send(js: JetStreamClient, subject: string, payload: { key: string }) {',
      '  await js.publish(subject, JSON.stringify(payload), { headers: dedupHeaders(payload.key) });',
      '  const built = dedupHeaders(payload.key);',
      '  await js.publish(subject, JSON.stringify(payload), { headers: built });',
      '}',
    ),
    // a method of the class builds them
    lines(
      IMPORTS,
      'export class Bus {',
      '  constructor(private js: JetStreamClient) {}',
      '  private buildHeaders(key: string) {',
      '    const h = headers();',
      "    h.set('Nats-Msg-Id', key);",
      '    return h;',
      '  }',
      '  async send(subject: string, payload: { key: string }) {',
      '    await this.js.publish(subject, JSON.stringify(payload), { headers: this.buildHeaders(payload.key) });',
      '  }',
      '}',
    ),
  ],
  invalid: [
    // headers built in the function without the id header
    {
      code: lines(
        IMPORTS,
        'export async function send(js: JetStreamClient, subject: string, payload: { key: string }) {',
        '  const h = headers();',
        "  h.set('trace-id', payload.key);",
        '  await js.publish(subject, JSON.stringify(payload), { headers: h });',
        '}',
      ),
      errors: [{ messageId: 'optionsWithoutMsgId', line: 5, column: 54 }],
    },
    // a helper that builds headers without it
    {
      code: lines(
        IMPORTS,
        'function traceHeaders(trace: string) {',
        '  const h = headers();',
        "  h.set('trace-id', trace);",
        '  return h;',
        '}',
        'export async function send(js: JetStreamClient, subject: string, payload: { key: string }) {',
        "  await js.publish(subject, JSON.stringify(payload), { headers: traceHeaders('t') });",
        '}',
      ),
      errors: [{ messageId: 'optionsWithoutMsgId', line: 8, column: 54 }],
    },
    // headers handed in: the file cannot see what they hold
    {
      code: lines(
        IMPORTS,
        "import type { MsgHdrs } from 'nats';",
        'export async function send(js: JetStreamClient, subject: string, data: Uint8Array, hdrs: MsgHdrs) {',
        '  await js.publish(subject, data, { headers: hdrs });',
        '}',
      ),
      errors: [{ messageId: 'optionsWithoutMsgId', line: 4, column: 35 }],
    },
  ],
});
