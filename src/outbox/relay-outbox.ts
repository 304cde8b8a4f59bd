// The outbox relay: claim unsent rows with a lease (`FOR UPDATE SKIP LOCKED`, so replicas never
// claim the same row at once), publish each with `msgID` = the row id, then mark them sent if
// our claim still holds. Safe on every replica and against a kill at any point: a dead relay's
// rows become claimable when its lease ends, and republishing one it had already published is
// dropped by the server inside the stream's duplicate window.
import { InvalidArgumentError } from '../errors.js';
import { claimRows, type SqlClient } from '../rows.js';
import { assertJetStreamPublisher, payloadBytes, publishOnce, type JetStreamPublisher } from './publish-once.js';

export type OutboxRow = Record<string, unknown>;

/** What the relay reports as it goes (for logs and metrics); never awaited. */
export type RelayEvent =
  | { type: 'claimed'; count: number }
  | { type: 'published'; id: unknown; msgID: string; duplicate: boolean; seq: number }
  | { type: 'sent'; count: number }
  | { type: 'released'; count: number }
  | { type: 'error'; error: unknown };

export interface RelayOutboxOptions<Row extends OutboxRow = OutboxRow> {
  /** A pg Pool/Client (or `fromPostgresJs(sql)`). Each statement stands alone, so PgBouncer transaction pooling is fine. */
  db: SqlClient;
  /** A JetStream context: nats v2 `nc.jetstream()` or @nats-io/jetstream `jetstream(nc)`. */
  js: JetStreamPublisher;
  /** The outbox table (`outbox` or `schema.outbox`); shape in `outboxTableDdl`. */
  table: string;
  /** Rows claimed per round; default 100. */
  batchSize?: number;
  /** Subject for a row; default its `subject` column. */
  subjectOf?: (row: Row) => string;
  /** Body for a row; default its `payload` column (bytes as is, text as UTF-8, JSON values as JSON). */
  payloadOf?: (row: Row) => Uint8Array | string;
  /** `msgID` for a row; default `String(row[idColumn])`. Must be unique within the stream. */
  msgIdOf?: (row: Row) => string;
  /** Stops the relay: the current publish finishes, published rows are marked sent, the rest released. */
  signal: AbortSignal;
  /**
   * Claim lease; default 30 s, at least 1 s. A killed relay's rows are republished after it, so keep
   * it well inside the stream's duplicate window (JetStream's default is 2 minutes).
   */
  leaseMs?: number;
  /** Pause when there is nothing to claim, and after an error; default 1 s. */
  idleMs?: number;
  /** Primary key column; default `id`. */
  idColumn?: string;
  /** Return once nothing is left to claim instead of waiting for more (for a job or a test). */
  untilEmpty?: boolean;
  onEvent?: (event: RelayEvent) => void;
}

export interface RelayStats {
  /** Claim rounds that returned rows. */
  batches: number;
  claimed: number;
  /** Publishes the server acknowledged (duplicates included). */
  published: number;
  /** Acknowledged as duplicates: another relay (or an earlier, killed run) had published the row. */
  duplicates: number;
  /** Rows this relay marked sent. */
  sent: number;
  /** Claimed rows handed back unpublished (stop, error, or the lease running short). */
  released: number;
  errors: number;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/;

function quoted(name: string, what: string): string {
  if (!IDENTIFIER.test(name))
    throw new InvalidArgumentError(`relayOutbox: ${what} must be a plain SQL identifier, got ${JSON.stringify(name)}`);
  return `"${name}"`;
}

function quotedTable(table: unknown): string {
  if (typeof table !== 'string' || table.length === 0)
    throw new InvalidArgumentError(`relayOutbox: table must be a non-empty string, got ${JSON.stringify(table)}`);
  const parts = table.split('.');
  if (parts.length > 2)
    throw new InvalidArgumentError(`relayOutbox: table must be "table" or "schema.table", got ${JSON.stringify(table)}`);
  return parts.map((part) => quoted(part, 'table')).join('.');
}

function integerAtLeast(value: unknown, min: number, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new InvalidArgumentError(`relayOutbox: ${what} must be an integer >= ${min}, got ${String(value)}`);
  }
  return value;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Relays outbox rows to JetStream until `signal` aborts (or, with `untilEmpty`, until nothing is
 * left to claim) and returns what it did. Errors (database, publish) are reported through
 * `onEvent` and counted; the relay waits `idleMs` and carries on.
 */
export async function relayOutbox<Row extends OutboxRow = OutboxRow>(options: RelayOutboxOptions<Row>): Promise<RelayStats> {
  if (typeof options !== 'object' || options === null) throw new InvalidArgumentError('relayOutbox: options must be an object');
  const { db, js, signal } = options;
  if (typeof db !== 'object' || db === null || typeof db.query !== 'function') {
    throw new InvalidArgumentError('relayOutbox: db must have query(text, values) (a pg Pool/Client, or fromPostgresJs(sql))');
  }
  assertJetStreamPublisher(js, 'relayOutbox');
  if (!(signal instanceof AbortSignal))
    throw new InvalidArgumentError('relayOutbox: signal must be an AbortSignal (it is how the relay is stopped)');
  const table = quotedTable(options.table);
  const idColumn = options.idColumn ?? 'id';
  const id = quoted(idColumn, 'idColumn');
  const batchSize = integerAtLeast(options.batchSize ?? 100, 1, 'batchSize');
  const leaseMs = integerAtLeast(options.leaseMs ?? 30_000, 1000, 'leaseMs');
  const idleMs = integerAtLeast(options.idleMs ?? 1000, 0, 'idleMs');
  const subjectOf = options.subjectOf ?? ((row: Row) => row.subject as string);
  const payloadOf = options.payloadOf ?? ((row: Row) => payloadBytes(row.payload));
  const msgIdOf = options.msgIdOf ?? ((row: Row) => String(row[idColumn]));
  const emit = (event: RelayEvent) => {
    try {
      options.onEvent?.(event);
    } catch {
      // A logging hook must not stop the relay.
    }
  };

  // Our claim is the lease value the claim statement wrote: consecutive claims of one row are at
  // least `leaseMs` apart, so matching it to the millisecond (a Date has no microseconds) is exact.
  const ours = `${id} = ANY($1) AND sent_at IS NULL AND locked_until > $2::timestamptz - interval '1 millisecond' AND locked_until < $2::timestamptz + interval '1 millisecond'`;
  const markSent = `UPDATE ${table} SET sent_at = now(), locked_until = NULL WHERE ${ours}`;
  const release = `UPDATE ${table} SET locked_until = NULL WHERE ${ours}`;
  const token = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

  const stats: RelayStats = { batches: 0, claimed: 0, published: 0, duplicates: 0, sent: 0, released: 0, errors: 0 };
  while (!signal.aborted) {
    const claimedAt = Date.now();
    let rows: Row[];
    try {
      rows = await claimRows<Row>(db, {
        table: options.table,
        limit: batchSize,
        idColumn,
        where: { sent_at: null },
        lease: { column: 'locked_until', ms: leaseMs },
        orderBy: idColumn,
      });
    } catch (error) {
      stats.errors++;
      emit({ type: 'error', error });
      await sleep(idleMs, signal);
      continue;
    }
    if (rows.length === 0) {
      if (options.untilEmpty) break;
      await sleep(idleMs, signal);
      continue;
    }
    stats.batches++;
    stats.claimed += rows.length;
    emit({ type: 'claimed', count: rows.length });

    // Stop publishing with a fifth of the lease left: past it another relay may claim the rows.
    const deadline = claimedAt + leaseMs * 0.8;
    const published: unknown[] = [];
    let failed = false;
    for (const row of rows) {
      if (signal.aborted || Date.now() > deadline) break;
      try {
        const msgID = msgIdOf(row);
        const outcome = await publishOnce(js, subjectOf(row), payloadOf(row), msgID);
        published.push(row[idColumn]);
        stats.published++;
        if (outcome.duplicate) stats.duplicates++;
        emit({ type: 'published', id: row[idColumn], msgID, duplicate: outcome.duplicate, seq: outcome.seq });
      } catch (error) {
        stats.errors++;
        failed = true;
        emit({ type: 'error', error });
        break;
      }
    }

    const lease = token(rows[0]?.locked_until);
    const unpublished = rows.slice(published.length).map((row) => row[idColumn]);
    try {
      if (published.length > 0) {
        const result = await db.query(markSent, [published, lease]);
        stats.sent += result.rowCount ?? 0;
        emit({ type: 'sent', count: result.rowCount ?? 0 });
      }
      if (unpublished.length > 0) {
        const result = await db.query(release, [unpublished, lease]);
        stats.released += result.rowCount ?? 0;
        emit({ type: 'released', count: result.rowCount ?? 0 });
      }
    } catch (error) {
      // Unmarked rows come back after the lease; their republish is a duplicate the server drops.
      stats.errors++;
      failed = true;
      emit({ type: 'error', error });
    }
    if (failed) await sleep(idleMs, signal);
  }
  return stats;
}
