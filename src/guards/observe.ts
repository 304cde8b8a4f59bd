// What operators see: every claim outcome, renewal and lease loss as an `onEvent` call and, when
// asked for, as OpenTelemetry metrics. Both are optional; with neither, the guards hold no
// observer at all (one null check per claim) and `@opentelemetry/api` is never loaded.
import { createRequire } from 'node:module';
import { InvalidArgumentError } from '../errors.js';
import { describeError, writeLog, type Logger } from '../logger.js';
import { show } from './validate.js';

export type GuardName = 'claimPeriod' | 'claimOnce' | 'runExclusive' | 'runOnce';

/** How a claim ended: this process won it, another replica holds it, the backend could not say, or no backend is set. */
export type ClaimOutcomeName = 'won' | 'held-elsewhere' | 'backend-unavailable' | 'local';

/** Why a held lease was lost. */
export type LeaseLossReason =
  /** A renewal failed or timed out (the backend is unreachable): the signal aborts before the lease can expire. */
  | 'renewal-failed'
  /** A renewal or the release found another owner (another replica took the key after expiry). */
  | 'taken-over'
  /** The lease ran out while `fn` ran (the event loop was blocked past it) and nobody took it meanwhile. */
  | 'expired';

export type GuardEvent =
  | {
      type: 'claim';
      guard: GuardName;
      key: string;
      outcome: ClaimOutcomeName;
      /** Time the claim took, ms (0 in local mode). */
      durationMs: number;
      /** The fencing token of a won runExclusive/runOnce lease. */
      fencingToken?: number;
      /** For `backend-unavailable`: what went wrong. */
      error?: unknown;
    }
  | { type: 'renewal'; guard: GuardName; key: string; renewed: boolean; durationMs: number; error?: unknown }
  | { type: 'lease-lost'; guard: GuardName; key: string; reason: LeaseLossReason; fencingToken?: number };

/** The part of an OpenTelemetry `MeterProvider` the guards use (`@opentelemetry/api`'s, or the SDK's). */
export interface MeterProviderLike {
  getMeter(name: string, version?: string): MeterLike;
}

interface MeterLike {
  createObservableCounter(
    name: string,
    options?: { description?: string; unit?: string },
  ): { addCallback(callback: (result: { observe(value: number, attributes?: Attributes): void }) => void): void };
  createHistogram(
    name: string,
    options?: { description?: string; unit?: string },
  ): { record(value: number, attributes?: Attributes): void };
}

type Attributes = Record<string, string>;

/**
 * `true`: record through the global MeterProvider of `@opentelemetry/api` (an optional peer
 * dependency; when it is not installed, a warning is logged once and nothing is recorded).
 * `{ meterProvider }`: record through that provider.
 */
export type MetricsOption = boolean | { meterProvider: MeterProviderLike };

export interface Observer {
  claim(guard: GuardName, key: string, outcome: ClaimOutcomeName, durationMs: number, fencingToken?: number, error?: unknown): void;
  renewal(guard: GuardName, key: string, renewed: boolean, durationMs: number, error?: unknown): void;
  leaseLost(guard: GuardName, key: string, reason: LeaseLossReason, fencingToken?: number): void;
}

export const METER_NAME = 'replica-guard';

/**
 * The metric label of a key: its first `:`-separated segment (`billing:renewals:493827` →
 * `billing`), so per-period and per-event keys do not explode the label's cardinality.
 */
export function keyPrefixOf(key: string): string {
  const colon = key.indexOf(':');
  return colon === -1 ? key : key.slice(0, colon);
}

/** null when neither onEvent nor metrics is set: the guards then skip every observation. */
export function createObserver(
  where: string,
  onEvent: ((event: GuardEvent) => void) | undefined,
  metrics: MetricsOption | undefined,
  logger: Logger,
): Observer | null {
  if (onEvent !== undefined && typeof onEvent !== 'function') {
    throw new InvalidArgumentError(`${where}: options.onEvent must be a function, got ${show(onEvent)}`);
  }
  if (metrics !== undefined && typeof metrics !== 'boolean') {
    const provider = (metrics as { meterProvider?: { getMeter?: unknown } } | null)?.meterProvider;
    if (typeof provider?.getMeter !== 'function') {
      throw new InvalidArgumentError(
        `${where}: options.metrics must be true, false or { meterProvider } (an OpenTelemetry MeterProvider), got ${show(metrics)}`,
      );
    }
  }
  const instruments = metrics ? createInstruments(metrics === true ? globalMeterProvider(logger) : metrics.meterProvider) : null;
  if (!onEvent && !instruments) return null;

  const emit = (event: GuardEvent) => {
    if (!onEvent) return;
    try {
      const returned: unknown = onEvent(event);
      if (returned instanceof Promise) returned.catch((error: unknown) => hookThrew(logger, error));
    } catch (error) {
      hookThrew(logger, error);
    }
  };
  return {
    claim(guard, key, outcome, durationMs, fencingToken, error) {
      if (instruments) {
        const attributes = instruments.claims.count(guard, keyPrefixOf(key), outcome);
        instruments.claimDuration.record(durationMs, attributes);
      }
      if (onEvent) {
        const event: GuardEvent = { type: 'claim', guard, key, outcome, durationMs };
        if (fencingToken !== undefined) event.fencingToken = fencingToken;
        if (error !== undefined) event.error = error;
        emit(event);
      }
    },
    renewal(guard, key, renewed, durationMs, error) {
      instruments?.renewals.count(guard, keyPrefixOf(key), renewed ? 'true' : 'false');
      if (onEvent) {
        emit(
          error === undefined
            ? { type: 'renewal', guard, key, renewed, durationMs }
            : { type: 'renewal', guard, key, renewed, durationMs, error },
        );
      }
    },
    leaseLost(guard, key, reason, fencingToken) {
      instruments?.leaseLosses.count(guard, keyPrefixOf(key), reason);
      if (onEvent) {
        emit(
          fencingToken === undefined
            ? { type: 'lease-lost', guard, key, reason }
            : { type: 'lease-lost', guard, key, reason, fencingToken },
        );
      }
    },
  };
}

/**
 * A counter kept in this process and reported to OpenTelemetry when the SDK collects (an
 * observable counter): a claim costs a map lookup and an increment, not an SDK record (which
 * hashes its attributes on every call). Attribute objects are built once per label set.
 */
class LocalCounter {
  private readonly totals = new Map<string, { attributes: Attributes; value: number }>();

  constructor(
    meter: MeterLike,
    name: string,
    description: string,
    private readonly label: string,
  ) {
    meter.createObservableCounter(name, { description }).addCallback((result) => {
      for (const { attributes, value } of this.totals.values()) result.observe(value, attributes);
    });
  }

  /** Adds one for this label set; returns its attributes (shared, never mutated). */
  count(guard: GuardName, keyPrefix: string, value: string): Attributes {
    const id = `${guard}\u0000${keyPrefix}\u0000${value}`;
    let total = this.totals.get(id);
    if (!total) {
      total = {
        attributes: Object.freeze({ 'replica_guard.guard': guard, 'replica_guard.key_prefix': keyPrefix, [this.label]: value }),
        value: 0,
      };
      this.totals.set(id, total);
    }
    total.value += 1;
    return total.attributes;
  }
}

function hookThrew(logger: Logger, error: unknown): void {
  writeLog(logger, 'error', `onEvent hook threw: ${describeError(error)}`);
}

function createInstruments(provider: MeterProviderLike | null) {
  if (!provider) return null;
  const meter = provider.getMeter(METER_NAME);
  return {
    claims: new LocalCounter(
      meter,
      'replica_guard.claims',
      'Guard claims by outcome (won, held-elsewhere, backend-unavailable, local)',
      'replica_guard.outcome',
    ),
    claimDuration: meter.createHistogram('replica_guard.claim.duration', { description: 'Time a claim took', unit: 'ms' }),
    renewals: new LocalCounter(
      meter,
      'replica_guard.renewals',
      'Lease renewals of runExclusive/runOnce, by result',
      'replica_guard.renewed',
    ),
    leaseLosses: new LocalCounter(
      meter,
      'replica_guard.lease_losses',
      'Leases lost while their job ran, by reason',
      'replica_guard.reason',
    ),
  };
}

let otelApi: { metrics: { getMeterProvider(): MeterProviderLike } } | null | undefined;

/** `@opentelemetry/api`'s global MeterProvider, loaded on first use; null (warned once) when it is not installed. */
function globalMeterProvider(logger: Logger): MeterProviderLike | null {
  if (otelApi === undefined) {
    try {
      const require = createRequire(typeof __filename === 'string' ? __filename : import.meta.url);
      const name = '@opentelemetry/api';
      otelApi = require(name) as typeof otelApi;
    } catch (error) {
      otelApi = null;
      writeLog(
        logger,
        'warn',
        `metrics: true needs the optional peer dependency @opentelemetry/api (npm i @opentelemetry/api); recording no metrics: ${describeError(error)}`,
      );
    }
  }
  return otelApi ? otelApi.metrics.getMeterProvider() : null;
}
