// `no-read-then-write` over NATS JetStream key-value buckets: a key's value read (`await kv.get(key)`),
// changed in JavaScript and put back with `kv.put` loses what another replica put in between; a
// compare-and-set on the revision read (`update`, `put` with `previousSeq`) loses nothing.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');

// Each file names a write word (`update` here, in a comment): the rule's first text test asks for one.
const V3 = lines(
  '// counters updated per request',
  "import { Kvm, type KV } from '@nats-io/kv';",
  'const decoder = new TextDecoder();',
  'const encoder = new TextEncoder();',
  'declare function openLedgerKv(): Promise<KV>;',
);
const V2 = lines(
  '// room slots updated on leave',
  "import { StringCodec, type NatsConnection } from 'nats';",
  'const sc = StringCodec();',
  'declare const nc: NatsConnection;',
);

ruleTester.run('no-read-then-write (NATS key-value buckets)', noReadThenWrite, {
  valid: [
    // the revision read checked by the write: update fails when the key moved on
    lines(
      V3,
      'export async function bumpVisits(page: string) {',
      '  const kv = await openLedgerKv();',
      '  const entry = await kv.get(page);',
      '  const visits = entry ? JSON.parse(decoder.decode(entry.value)) + 1 : 1;',
      '  if (entry) await kv.update(page, encoder.encode(JSON.stringify(visits)), entry.revision);',
      '  else await kv.create(page, encoder.encode(JSON.stringify(visits)));',
      '}',
    ),
    // put with the revision expected
    lines(
      V3,
      'export async function bumpVisits(page: string) {',
      '  const kv = await openLedgerKv();',
      '  const entry = await kv.get(page);',
      '  const visits = JSON.parse(decoder.decode(entry!.value)) + 1;',
      '  await kv.put(page, encoder.encode(JSON.stringify(visits)), { previousSeq: entry!.revision });',
      '}',
    ),
    // the value goes to another key
    lines(
      V3,
      'export async function snapshot(page: string) {',
      '  const kv = await openLedgerKv();',
      '  const entry = await kv.get(page);',
      '  const visits = JSON.parse(decoder.decode(entry!.value)) + 1;',
      '  await kv.put(`${page}.preview`, encoder.encode(JSON.stringify(visits)));',
      '}',
    ),
    // …or to another bucket
    lines(
      V3,
      'export async function archive(page: string, liveKv: KV, pastKv: KV) {',
      '  const entry = await liveKv.get(page);',
      '  const visits = JSON.parse(decoder.decode(entry!.value)) + 1;',
      '  await pastKv.put(page, encoder.encode(JSON.stringify(visits)));',
      '}',
    ),
    // a value not derived from the read (a cache refreshed)
    lines(
      V3,
      'declare function renderPage(page: string): Promise<string>;',
      'export async function refresh(page: string) {',
      '  const kv = await openLedgerKv();',
      '  const entry = await kv.get(page);',
      '  if (entry) return decoder.decode(entry.value);',
      '  const html = await renderPage(page);',
      '  await kv.put(page, encoder.encode(html));',
      '  return html;',
      '}',
    ),
    // no NATS module imported: a store of the project's own
    lines(
      'import { updateTotals } from "./totals";',
      'declare const kv: { get(k: string): Promise<{ value: Uint8Array } | null>; put(k: string, v: Uint8Array): Promise<void> };',
      'const decoder = new TextDecoder();',
      'const encoder = new TextEncoder();',
      'export async function bumpVisits(page: string) {',
      '  const entry = await kv.get(page);',
      '  const visits = JSON.parse(decoder.decode(entry!.value)) + 1;',
      '  await kv.put(page, encoder.encode(JSON.stringify(visits)));',
      '  await updateTotals(page);',
      '}',
    ),
  ],
  invalid: [
    // a counter read, +1 in JavaScript, put back
    {
      code: lines(
        V3,
        'export async function bumpVisits(page: string) {',
        '  const kv = await openLedgerKv();',
        '  const entry = await kv.get(page);',
        '  let visits: number;',
        '  if (!entry) visits = 1;',
        '  else visits = JSON.parse(decoder.decode(entry.value)) + 1;',
        '  await kv.put(page, encoder.encode(JSON.stringify(visits)));',
        '  return visits;',
        '}',
      ),
      errors: [{ messageId: 'natsKv', data: { field: 'page' }, line: 12, column: 12 }],
    },
    // a record parsed, a field changed, the whole record put back
    {
      code: lines(
        V3,
        'export async function markShipped(orderId: string, carrier: string) {',
        '  const kv = await openLedgerKv();',
        '  const entry = await kv.get(`order.${orderId}`);',
        '  if (!entry) return null;',
        '  const order = JSON.parse(decoder.decode(entry.value));',
        "  order.state = 'shipped';",
        '  order.carrier = carrier;',
        '  await kv.put(`order.${orderId}`, encoder.encode(JSON.stringify(order)));',
        '  return order;',
        '}',
      ),
      errors: [{ messageId: 'natsKv', line: 13, column: 12 }],
    },
    // nats.js v2: the entry's own decoder, a floor kept in JavaScript, a codec encoding
    {
      code: lines(
        V2,
        'export async function releaseSlot(room: string) {',
        "  const bucket = await nc.jetstream().views.kv('rooms');",
        '  const entry = await bucket.get(room);',
        '  if (!entry) return 0;',
        '  const free = Math.max(0, Number(entry.string()) - 1);',
        '  await bucket.put(room, sc.encode(String(free)));',
        '  return free;',
        '}',
      ),
      errors: [{ messageId: 'natsKv', data: { field: 'room' }, line: 10, column: 16 }],
    },
  ],
});
