import { claimBatch, markSent, pendingEvents } from './events/store.js';
import { takeDueRuns } from './runs/due.js';
import { publish } from './publish.js';
import { expireRun } from './runs/expire.js';

// Claimed with SKIP LOCKED in the store: each replica sends different events.
setInterval(async () => {
  for (const event of await claimBatch(50)) {
    await publish(event);
    await markSent(event.id);
  }
}, 5_000);

// Popped by an atomic script in the module: each due run goes to one replica.
setInterval(async () => {
  for (const id of await takeDueRuns(Date.now())) await expireRun(id);
}, 1_000);

// Only read: every replica sends the same events.
setInterval(async () => {
  for (const event of await pendingEvents(50)) {
    await publish(event);
    await markSent(event.id);
  }
}, 5_000);
