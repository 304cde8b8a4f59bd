// Outbox publishing against a real nats-server -js and PostgreSQL: msgID deduplication with both
// client generations, and relays (in-process and as real processes, one SIGKILLed mid-batch)
// leaving every row published exactly once.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import pg from 'pg';
import { connect as connectV2, StorageType, type NatsConnection as NatsConnectionV2 } from 'nats';
import { connect as connectV3 } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import {
  claimRows,
  InvalidArgumentError,
  outboxTableDdl,
  publishOnce,
  PublishFailedError,
  relayOutbox,
  type RelayEvent,
  type RelayStats,
} from '../../src/index.js';

const RUN = randomBytes(4).toString('hex');
const DATABASE = `rg_outbox_${RUN}`;
const DUPLICATE_WINDOW_NS = 120_000 * 1_000_000;

let databaseUrl: string;
let pool: pg.Pool;
let nc: NatsConnectionV2;

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: inject('postgresUrl') });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${DATABASE}`);
  await admin.end();
  databaseUrl = inject('postgresUrl').replace(/\/postgres$/, `/${DATABASE}`);
  pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  nc = await connectV2({ servers: inject('natsUrl') });
});

afterAll(async () => {
  await nc?.close();
  await pool?.end();
  const admin = new pg.Client({ connectionString: inject('postgresUrl') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await admin.end();
});

/** A memory stream `RG_<name>_<run>` on subjects `rg.<run>.<name>.>`; returns its subject prefix. */
async function createStream(name: string): Promise<{ stream: string; prefix: string }> {
  const stream = `RG_${name.toUpperCase()}_${RUN}`;
  const prefix = `rg.${RUN}.${name}`;
  const jsm = await nc.jetstreamManager();
  await jsm.streams.add({ name: stream, subjects: [`${prefix}.>`], storage: StorageType.Memory, duplicate_window: DUPLICATE_WINDOW_NS });
  return { stream, prefix };
}

async function streamState(stream: string): Promise<{ messages: number; subjects: number }> {
  const jsm = await nc.jetstreamManager();
  const info = await jsm.streams.info(stream);
  return { messages: info.state.messages, subjects: info.state.num_subjects ?? 0 };
}

async function createOutbox(table: string, rows: number): Promise<void> {
  await pool.query(outboxTableDdl(table));
  await pool.query(
    `INSERT INTO "${table}" (subject, payload) SELECT 'unused', jsonb_build_object('n', g) FROM generate_series(1, $1::int) g`,
    [rows],
  );
}

async function unsent(table: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}" WHERE sent_at IS NULL`);
  return rows[0]?.n ?? -1;
}

test('nats v2: a publish repeated with the same msgID is acknowledged as a duplicate and stored once', async () => {
  const { stream, prefix } = await createStream('dedupv2');
  const js = nc.jetstream();
  const first = await publishOnce(js, `${prefix}.order`, '{"order":42}', 'order-42');
  const again = await publishOnce(js, `${prefix}.order`, '{"order":42}', 'order-42');
  expect(first).toEqual({ duplicate: false, seq: 1, stream });
  expect(again).toEqual({ duplicate: true, seq: 1, stream });
  expect((await streamState(stream)).messages).toBe(1);
  // A different id is a different message.
  expect(await publishOnce(js, `${prefix}.order`, '{"order":43}', 'order-43')).toEqual({ duplicate: false, seq: 2, stream });
  expect((await streamState(stream)).messages).toBe(2);
});

test('@nats-io/jetstream v3 + transport-node: a publish repeated with the same msgID is a duplicate, stored once', async () => {
  const nc3 = await connectV3({ servers: inject('natsUrl') });
  try {
    const stream = `RG_DEDUPV3_${RUN}`;
    const prefix = `rg.${RUN}.dedupv3`;
    const jsm = await jetstreamManager(nc3);
    await jsm.streams.add({ name: stream, subjects: [`${prefix}.>`], duplicate_window: DUPLICATE_WINDOW_NS });
    const js = jetstream(nc3);
    const payload = new TextEncoder().encode('{"event":7}');
    const first = await publishOnce(js, `${prefix}.event`, payload, 'event-7');
    const again = await publishOnce(js, `${prefix}.event`, payload, 'event-7');
    expect(first).toEqual({ duplicate: false, seq: 1, stream });
    expect(again).toEqual({ duplicate: true, seq: 1, stream });
    expect((await jsm.streams.info(stream)).state.messages).toBe(1);
    const stored = await jsm.streams.getMessage(stream, { seq: 1 });
    expect(stored?.header.get('Nats-Msg-Id')).toBe('event-7');
  } finally {
    await nc3.close();
  }
});

test('publishOnce names what was wrong, and wraps an unacknowledged publish', async () => {
  const js = nc.jetstream();
  await expect(publishOnce({} as never, 's', 'x', 'id')).rejects.toThrow(InvalidArgumentError);
  await expect(publishOnce(js, '', 'x', 'id')).rejects.toThrow(/subject must be a non-empty string/);
  await expect(publishOnce(js, 's', 'x', '')).rejects.toThrow(/msgID must be a non-empty string/);
  // No stream listens on this subject: the server does not acknowledge.
  const failure = await publishOnce(js, `rg.${RUN}.nostream`, 'x', 'id-1').catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(PublishFailedError);
  expect((failure as PublishFailedError).code).toBe('PUBLISH_FAILED');
  expect((failure as PublishFailedError).cause).toBeDefined();
});

test('relayOutbox rejects options it cannot use', async () => {
  const base = { db: pool, js: nc.jetstream(), table: 'outbox', signal: new AbortController().signal };
  await expect(relayOutbox({ ...base, table: 'bad table' })).rejects.toThrow(/table must be a plain SQL identifier/);
  await expect(relayOutbox({ ...base, leaseMs: 10 })).rejects.toThrow(/leaseMs must be an integer >= 1000/);
  await expect(relayOutbox({ ...base, js: { send() {} } as never })).rejects.toThrow(/js must be a JetStream context/);
  await expect(relayOutbox({ ...base, signal: undefined as never })).rejects.toThrow(/signal must be an AbortSignal/);
});

test('a crashed relay: rows it published but never marked come back after the lease and are dropped as duplicates', async () => {
  const { stream, prefix } = await createStream('crash');
  await createOutbox('crash_outbox', 30);
  const js = nc.jetstream();
  // The "crashed" relay: claims 10 rows, publishes 4, dies before marking them sent.
  const claimed = await claimRows<{ id: string }>(pool, {
    table: 'crash_outbox',
    limit: 10,
    where: { sent_at: null },
    lease: { column: 'locked_until', ms: 1000 },
  });
  expect(claimed).toHaveLength(10);
  for (const row of claimed.slice(0, 4)) await publishOnce(js, `${prefix}.${row.id}`, '{}', row.id);
  await new Promise((resolve) => setTimeout(resolve, 1100));

  const events: RelayEvent[] = [];
  const stats = await relayOutbox({
    db: pool,
    js,
    table: 'crash_outbox',
    batchSize: 8,
    leaseMs: 5000,
    subjectOf: (row) => `${prefix}.${String(row.id)}`,
    signal: new AbortController().signal,
    untilEmpty: true,
    onEvent: (event) => events.push(event),
  });
  expect(stats).toEqual({ batches: 4, claimed: 30, published: 30, duplicates: 4, sent: 30, released: 0, errors: 0 });
  const duplicateIds = events.flatMap((e) => (e.type === 'published' && e.duplicate ? [e.msgID] : []));
  expect(duplicateIds.sort()).toEqual(
    claimed
      .slice(0, 4)
      .map((row) => String(row.id))
      .sort(),
  );
  expect(await streamState(stream)).toEqual({ messages: 30, subjects: 30 });
  expect(await unsent('crash_outbox')).toBe(0);
});

test('a publish that fails stops the batch (order kept), releases the rest, and the relay retries', async () => {
  const { stream, prefix } = await createStream('release');
  await createOutbox('release_outbox', 3);
  const controller = new AbortController();
  const events: RelayEvent[] = [];
  let streamMissing = true;
  const options = {
    db: pool,
    js: nc.jetstream(),
    table: 'release_outbox',
    leaseMs: 5000,
    idleMs: 50,
    // Row 2 goes to a subject no stream listens on, until the "fix" is deployed.
    subjectOf: (row: Record<string, unknown>) =>
      String(row.id) === '2' && streamMissing ? `rg.${RUN}.nowhere.2` : `${prefix}.${String(row.id)}`,
    onEvent: (event: RelayEvent) => {
      events.push(event);
      if (events.filter((e) => e.type === 'error').length === 2) controller.abort();
    },
  };
  const failing = await relayOutbox({ ...options, signal: controller.signal });
  // Round 1: 1 published and marked, 2 fails, 2 and 3 released. Round 2: 2 fails again, 2 and 3 released.
  expect(failing).toEqual({ batches: 2, claimed: 5, published: 1, duplicates: 0, sent: 1, released: 4, errors: 2 });
  expect(events.find((e) => e.type === 'error')).toMatchObject({ error: expect.any(PublishFailedError) });
  const { rows } = await pool.query(`SELECT id::int, sent_at IS NOT NULL AS sent, locked_until FROM release_outbox ORDER BY id`);
  expect(rows).toEqual([
    { id: 1, sent: true, locked_until: null },
    { id: 2, sent: false, locked_until: null },
    { id: 3, sent: false, locked_until: null },
  ]);

  streamMissing = false;
  const fixed = await relayOutbox({ ...options, signal: new AbortController().signal, untilEmpty: true });
  expect(fixed).toMatchObject({ claimed: 2, published: 2, sent: 2, errors: 0 });
  expect(await unsent('release_outbox')).toBe(0);
  expect((await streamState(stream)).messages).toBe(3);
});

test('a relay whose lease ran out does not mark rows another relay now holds', async () => {
  const { stream, prefix } = await createStream('leaselost');
  await createOutbox('lease_outbox', 1);
  const js = nc.jetstream();
  // Relay A's publish takes longer than its lease; relay B claims the row meanwhile.
  const slow = {
    publish: async (...args: Parameters<typeof js.publish>) => (await new Promise((r) => setTimeout(r, 1600)), js.publish(...args)),
  };
  let bClaim: Promise<Array<{ id: string }>> | undefined;
  const statsA = await relayOutbox({
    db: pool,
    js: slow,
    table: 'lease_outbox',
    leaseMs: 1000,
    subjectOf: (row) => `${prefix}.${String(row.id)}`,
    signal: new AbortController().signal,
    untilEmpty: true,
    onEvent: (event) => {
      if (event.type === 'claimed') {
        bClaim = new Promise((resolve) => setTimeout(resolve, 1200)).then(() =>
          claimRows<{ id: string }>(pool, {
            table: 'lease_outbox',
            limit: 10,
            where: { sent_at: null },
            lease: { column: 'locked_until', ms: 5000 },
          }),
        );
      }
    },
  });
  expect(await bClaim).toHaveLength(1);
  expect(statsA).toMatchObject({ claimed: 1, published: 1, duplicates: 0, sent: 0 });
  // B still holds its claim; its publish is the duplicate, and its mark counts.
  const { rows } = await pool.query(`SELECT sent_at, locked_until > now() AS held FROM lease_outbox`);
  expect(rows).toEqual([{ sent_at: null, held: true }]);
  expect((await publishOnce(js, `${prefix}.1`, '{}', '1')).duplicate).toBe(true);
  expect((await streamState(stream)).messages).toBe(1);
});

interface Replica {
  child: ChildProcess;
  events: Array<Record<string, unknown>>;
  exited: Promise<number | null>;
  stderr: () => string;
}

function startRelay(
  table: string,
  prefix: string,
  client: 'v2' | 'v3',
  onEvent?: (event: Record<string, unknown>, replica: Replica) => void,
): Replica {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/runtime/fixtures/outbox/relay.ts'], {
    env: {
      ...process.env,
      PG_URL: databaseUrl,
      NATS_URL: inject('natsUrl'),
      TABLE: table,
      SUBJECT_PREFIX: prefix,
      BATCH_SIZE: '50',
      LEASE_MS: '2000',
      NATS_CLIENT: client,
      PUBLISH_DELAY_MS: '3',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const replica: Replica = {
    child,
    events: [],
    exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))),
    stderr: () => stderr,
  };
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const event = JSON.parse(line) as Record<string, unknown>;
    replica.events.push(event);
    onEvent?.(event, replica);
  });
  return replica;
}

const statsOf = (replica: Replica): RelayStats => replica.events.find((e) => e.type === 'stats')?.stats as RelayStats;

test('3 relay processes drain 2,000 rows at once; one SIGKILLed mid-batch and restarted; exactly 2,000 messages, every row sent', async () => {
  const { stream, prefix } = await createStream('replicas');
  await createOutbox('replica_outbox', 2000);

  // The victim is killed right after the second publish of the first batch it claims once all
  // three replicas are draining: mid-batch, with published-but-unmarked rows and
  // claimed-but-unpublished rows, while the others are running.
  const draining = new Set<Replica>();
  let armed = false;
  let inBatch = 0;
  let claimedInBatch = 0;
  let killedAfter: { publishedInBatch: number; claimedInBatch: number } | undefined;
  const watch = (event: Record<string, unknown>, replica: Replica) => {
    if (event.type === 'claimed') draining.add(replica);
    if (replica !== victim || killedAfter) return;
    if (event.type === 'claimed' && draining.size === 3) {
      armed = true;
      inBatch = 0;
      claimedInBatch = event.count as number;
    }
    if (event.type === 'published' && armed && ++inBatch === 2) {
      replica.child.kill('SIGKILL');
      killedAfter = { publishedInBatch: inBatch, claimedInBatch };
    }
  };
  const victim = startRelay('replica_outbox', prefix, 'v2', watch);
  const others = [startRelay('replica_outbox', prefix, 'v3', watch), startRelay('replica_outbox', prefix, 'v2', watch)];

  expect(await victim.exited).toBe(null);
  expect(victim.child.signalCode).toBe('SIGKILL');
  expect(killedAfter).toEqual({ publishedInBatch: 2, claimedInBatch: 50 });
  // Its last batch was never marked sent.
  const victimEvents = victim.events.slice(victim.events.findLastIndex((e) => e.type === 'claimed'));
  expect(victimEvents.some((e) => e.type === 'sent')).toBe(false);

  const restarted = startRelay('replica_outbox', prefix, 'v3');
  const replicas = [...others, restarted];
  const deadline = Date.now() + 120_000;
  while ((await unsent('replica_outbox')) > 0) {
    if (Date.now() > deadline)
      throw new Error(`outbox not drained: ${await unsent('replica_outbox')} rows unsent; ${replicas.map((r) => r.stderr()).join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  for (const replica of replicas) replica.child.kill('SIGTERM');
  expect(await Promise.all(replicas.map((r) => r.exited))).toEqual([0, 0, 0]);

  // Exactly one message per row: 2,000 messages on 2,000 distinct subjects (one per row id).
  expect(await streamState(stream)).toEqual({ messages: 2000, subjects: 2000 });
  expect(await unsent('replica_outbox')).toBe(0);
  const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM replica_outbox WHERE locked_until IS NOT NULL`);
  expect(rows[0]?.n).toBe(0);

  // Every replica took part, and the rows the victim had published were dropped as duplicates.
  const stats = replicas.map(statsOf);
  for (const s of stats) expect(s.errors).toBe(0);
  const sentByVictim = victim.events.filter((e) => e.type === 'sent').reduce((n, e) => n + (e.count as number), 0);
  const sentBySurvivors = stats.reduce((n, s) => n + s.sent, 0);
  expect(sentByVictim + sentBySurvivors).toBe(2000);
  expect(stats.reduce((n, s) => n + s.duplicates, 0)).toBeGreaterThanOrEqual(2);
  expect(stats.filter((s) => s.sent > 0).length).toBeGreaterThanOrEqual(2);
}, 240_000);
