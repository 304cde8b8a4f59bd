import type { JetStreamClient } from 'nats';
import { dedupHeaders, traceHeaders, tracedHeaders } from './headers';

export async function posted(js: JetStreamClient, entry: { key: string; amount: number }, trace: string) {
  await js.publish('ledger.posted', JSON.stringify(entry), { headers: dedupHeaders(entry.key) });
  await js.publish('ledger.traced', JSON.stringify(entry), { headers: tracedHeaders(entry.key, trace) });
  await js.publish('ledger.audit', JSON.stringify(entry), { headers: traceHeaders(trace) });
}
