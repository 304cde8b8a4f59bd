import { relayOutbox } from './outbox/drain.js';
import { pollGauges } from './gauges/poll.js';
import { handlePendingRefunds } from './refunds/pending.js';

setInterval(() => relayOutbox(), 30_000);
setInterval(() => pollGauges(), 30_000);
setInterval(() => handlePendingRefunds(), 30_000);
