// Stand-ins for the outside world: each "sent email" or "issued invoice" is one JSON line in
// SIDE_EFFECT_LOG, so a test (or you) can count how often it happened and on which replica.
import { appendFileSync } from 'node:fs';

const log = process.env.SIDE_EFFECT_LOG ?? 'side-effects.log';
const replica = process.env.REPLICA_ID ?? String(process.pid);

export function recordSideEffect(kind, detail = {}) {
  appendFileSync(log, `${JSON.stringify({ kind, at: Date.now(), replica, ...detail })}\n`);
}
