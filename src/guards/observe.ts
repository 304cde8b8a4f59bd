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
  createCounter(name: string, options?: { description?: string; unit?: string }): { add(value: number, attributes?: Attributes): void };
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
        const attributes = { 'replica_guard.guard': guard, 'replica_guard.key_prefix': keyPrefixOf(key), 'replica_guard.outcome': outcome };
        instruments.claims.add(1, attributes);
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
      instruments?.renewals.add(1, {
        'replica_guard.guard': guard,
        'replica_guard.key_prefix': keyPrefixOf(key),
        'replica_guard.renewed': renewed ? 'true' : 'false',
      });
      if (onEvent)
        emit(
          error === undefined
            ? { type: 'renewal', guard, key, renewed, durationMs }
            : { type: 'renewal', guard, key, renewed, durationMs, error },
        );
    },
    leaseLost(guard, key, reason, fencingToken) {
      instruments?.leaseLosses.add(1, {
        'replica_guard.guard': guard,
        'replica_guard.key_prefix': keyPrefixOf(key),
        'replica_guard.reason': reason,
      });
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

function hookThrew(logger: Logger, error: unknown): void {
  writeLog(logger, 'error', `onEvent hook threw: ${describeError(error)}`);
}

function createInstruments(provider: MeterProviderLike | null) {
  if (!provider) return null;
  const meter = provider.getMeter(METER_NAME);
  return {
    claims: meter.createCounter('replica_guard.claims', {
      description: 'Guard claims by outcome (won, held-elsewhere, backend-unavailable, local)',
    }),
    claimDuration: meter.createHistogram('replica_guard.claim.duration', { description: 'Time a claim took', unit: 'ms' }),
    renewals: meter.createCounter('replica_guard.renewals', { description: 'Lease renewals of runExclusive/runOnce, by result' }),
    leaseLosses: meter.createCounter('replica_guard.lease_losses', { description: 'Leases lost while their job ran, by reason' }),
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
