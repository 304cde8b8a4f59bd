// Claim outcomes, renewals, lease losses and claim latency as OpenTelemetry metrics, read back
// through the SDK's own InMemoryMetricExporter; and the same as onEvent calls. Real Redis.
import { randomUUID } from 'node:crypto';
import { metrics } from '@opentelemetry/api';
import {
  AggregationTemporality,
  DataPointType,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type MetricData,
} from '@opentelemetry/sdk-metrics';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { createGuards, InvalidArgumentError, type GuardEvent } from '../../src/index.js';
import { storeFactory, type ConnectedLeaseClient, type StoreSideDoor } from './stores.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function sdk() {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000 });
  const provider = new MeterProvider({ readers: [reader] });
  return {
    provider,
    async read(): Promise<MetricData[]> {
      await reader.forceFlush();
      return (
        exporter
          .getMetrics()
          .at(-1)
          ?.scopeMetrics.flatMap((scope) => scope.metrics) ?? []
      );
    },
    shutdown: () => provider.shutdown(),
  };
}

/** `{ "<attr>=<value>,…": value }` for a counter, the count for a histogram. */
function points(all: MetricData[], name: string): Record<string, number> {
  const metric = all.find((m) => m.descriptor.name === name);
  const out: Record<string, number> = {};
  for (const point of metric?.dataPoints ?? []) {
    const label = Object.entries(point.attributes)
      .map(([k, v]) => `${k.replace('replica_guard.', '')}=${String(v)}`)
      .sort()
      .join(',');
    out[label] = metric!.dataPointType === DataPointType.HISTOGRAM ? (point.value as { count: number }).count : (point.value as number);
  }
  return out;
}

describe('metrics and events (Redis)', () => {
  const prefix = `metrics:${randomUUID()}:`;
  let connected: ConnectedLeaseClient;
  let sideDoor: StoreSideDoor;
  const factory = storeFactory('ioredis');

  beforeAll(async () => {
    connected = await factory.connect(inject('redisUrl'));
    sideDoor = await factory.sideDoor(inject('redisUrl'));
  });
  afterAll(async () => {
    await Promise.all([connected?.close(), sideDoor?.close()]);
  });

  test('claims by outcome, renewals, lease losses and a latency histogram, labelled by key prefix', async () => {
    const otel = sdk();
    const events: GuardEvent[] = [];
    const guards = createGuards({
      client: connected.client,
      prefix,
      logger: {},
      metrics: { meterProvider: otel.provider },
      onEvent: (e) => events.push(e),
    });
    const neverConnected = createClient({ url: inject('redisUrl') });
    const down = createGuards({ client: neverConnected, prefix, logger: {}, metrics: { meterProvider: otel.provider } });
    const local = createGuards({ logger: {}, metrics: { meterProvider: otel.provider } });
    try {
      expect(await guards.claimPeriod('billing:renewals', 60_000)).toBe(true);
      expect(await guards.claimPeriod('billing:renewals', 60_000)).toBe(false);
      expect(await guards.claimOnce('notify:sla:task-1', 60_000)).toBe(true);
      expect(await down.claimOnce('notify:sla:task-2', 60_000)).toBe(false);
      expect(await local.claimPeriod('billing:renewals', 60_000)).toBe(true);
      // A lease renewed twice, then taken over behind its back.
      const result = await guards.runExclusive('search:reindex', 300, async (signal) => {
        await sleep(250);
        await sideDoor.takeOver(`${prefix}search:reindex`, 'intruder', 10_000);
        await new Promise((resolve) => signal.addEventListener('abort', resolve));
      });
      expect(result.leaseLost).toBe(true);

      const all = await otel.read();
      expect(points(all, 'replica_guard.claims')).toEqual({
        'guard=claimPeriod,key_prefix=billing,outcome=won': 1,
        'guard=claimPeriod,key_prefix=billing,outcome=held-elsewhere': 1,
        'guard=claimPeriod,key_prefix=billing,outcome=local': 1,
        'guard=claimOnce,key_prefix=notify,outcome=won': 1,
        'guard=claimOnce,key_prefix=notify,outcome=backend-unavailable': 1,
        'guard=runExclusive,key_prefix=search,outcome=won': 1,
      });
      expect(points(all, 'replica_guard.claim.duration')).toEqual(points(all, 'replica_guard.claims'));
      const renewals = points(all, 'replica_guard.renewals');
      expect(renewals['guard=runExclusive,key_prefix=search,renewed=true']).toBeGreaterThanOrEqual(1);
      expect(renewals['guard=runExclusive,key_prefix=search,renewed=false']).toBe(1);
      expect(points(all, 'replica_guard.lease_losses')).toEqual({ 'guard=runExclusive,key_prefix=search,reason=taken-over': 1 });

      // The same story as events, for services without OpenTelemetry.
      expect(events.filter((e) => e.type === 'claim').map((e) => e.type === 'claim' && [e.guard, e.key, e.outcome])).toEqual([
        ['claimPeriod', 'billing:renewals', 'won'],
        ['claimPeriod', 'billing:renewals', 'held-elsewhere'],
        ['claimOnce', 'notify:sla:task-1', 'won'],
        ['runExclusive', 'search:reindex', 'won'],
      ]);
      const won = events.find((e) => e.type === 'claim' && e.guard === 'runExclusive');
      expect(won).toMatchObject({ fencingToken: result.fencingToken });
      expect((won as { durationMs: number }).durationMs).toBeGreaterThan(0);
      expect(events.at(-1)).toEqual({
        type: 'lease-lost',
        guard: 'runExclusive',
        key: 'search:reindex',
        reason: 'taken-over',
        fencingToken: result.fencingToken,
      });
    } finally {
      await otel.shutdown();
    }
  });

  test('metrics: true records through the global MeterProvider of @opentelemetry/api', async () => {
    const otel = sdk();
    metrics.setGlobalMeterProvider(otel.provider);
    try {
      const guards = createGuards({ client: connected.client, prefix, logger: {}, metrics: true });
      expect(await guards.claimOnce('global:event', 60_000)).toBe(true);
      expect(points(await otel.read(), 'replica_guard.claims')).toEqual({ 'guard=claimOnce,key_prefix=global,outcome=won': 1 });
    } finally {
      metrics.disable();
      await otel.shutdown();
    }
  });

  test('a throwing or rejecting onEvent hook is logged and never changes the outcome', async () => {
    const errors: string[] = [];
    const throwing = createGuards({
      client: connected.client,
      prefix,
      logger: { error: (m) => errors.push(m) },
      onEvent: () => {
        throw new Error('hook broke');
      },
    });
    expect(await throwing.claimOnce('hook:1', 60_000)).toBe(true);
    const rejecting = createGuards({
      client: connected.client,
      prefix,
      logger: { error: (m) => errors.push(m) },
      onEvent: async () => Promise.reject(new Error('async hook broke')),
    });
    expect(await rejecting.claimOnce('hook:2', 60_000)).toBe(true);
    await sleep(10);
    expect(errors).toEqual(['replica-guard: onEvent hook threw: hook broke', 'replica-guard: onEvent hook threw: async hook broke']);
  });

  test('bad metrics or onEvent options are InvalidArgumentErrors naming them', () => {
    expect(() => createGuards({ metrics: {} as never })).toThrow(
      /createGuards: options.metrics must be true, false or \{ meterProvider \}/,
    );
    expect(() => createGuards({ onEvent: 'log' as never })).toThrow(InvalidArgumentError);
    expect(() => createGuards({ onEvent: 'log' as never })).toThrow(/options.onEvent must be a function/);
  });
});
