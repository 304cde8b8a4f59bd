import { headers, type MsgHdrs } from 'nats';

// Headers that carry the id JetStream deduplicates on.
export function dedupHeaders(key: string): MsgHdrs {
  const h = headers();
  h.set('Nats-Msg-Id', key);
  return h;
}

// A second step: tracing added to headers built by the helper above.
export function tracedHeaders(key: string, trace: string): MsgHdrs {
  const h = dedupHeaders(key);
  h.set('trace-id', trace);
  return h;
}

// Tracing only: no id.
export function traceHeaders(trace: string): MsgHdrs {
  const h = headers();
  h.set('trace-id', trace);
  return h;
}
