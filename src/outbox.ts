// Outbox publishing: `publishOnce` (a JetStream publish with msgID) and `relayOutbox` (claim,
// publish, mark sent — on every replica at once). See docs/outbox.md.
export { publishOnce, type JetStreamPublisher, type PublishOutcome } from './outbox/publish-once.js';
export { relayOutbox, type OutboxRow, type RelayEvent, type RelayOutboxOptions, type RelayStats } from './outbox/relay-outbox.js';
export { OUTBOX_TABLE_DDL, outboxTableDdl } from './outbox/outbox-table.js';
