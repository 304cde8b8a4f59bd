import { processOutbox } from './outbox/drain.js';
import { pollGauges } from './gauges/poll.js';
import { handlePendingRefunds } from './refunds/pending.js';

setInterval(() => processOutbox(), 30_000);
setInterval(() => pollGauges(), 30_000);
setInterval(() => handlePendingRefunds(), 30_000);
