// The lease configuration: the process-wide default instance set by setLeaseClient, and the
// validation that turns a client and its options into a LeaseConfig (shared with createGuards).
import type { Logger } from '../logger.js';
import { defaultLogger } from '../logger.js';
import { InvalidArgumentError } from '../errors.js';
import { resolveLeaseStore, type LeaseStoreKind } from '../lease/resolve-store.js';
import { RAW_ACQUIRE, type LeaseStore, type RawAcquire } from '../lease/store.js';
import type { PostgresLeaseStoreOptions } from '../lease/postgres-store.js';
import { assertPositiveInteger, show } from './validate.js';
import { createObserver, type GuardEvent, type GuardName, type MetricsOption, type Observer } from './observe.js';

export type { GuardName };

/** Why a guard did not run: another replica holds the key, or the backend could not say. */
export type SkipReason = 'claimed-elsewhere' | 'backend-unavailable';

export interface SkipEvent {
  guard: GuardName;
  /** The key the caller passed (for claimPeriod, the job key; the log line names the slot). */
  key: string;
  reason: SkipReason;
  /** For `backend-unavailable`: what went wrong (a ReplicaGuardError or the client's error). */
  error?: unknown;
}

export interface LeaseClientOptions extends PostgresLeaseStoreOptions {
  /** How long a claim, renewal or release may take before it counts as failed. Default 2000. */
  timeoutMs?: number;
  /** Prepended to every key in the backend. Default `'replica-guard:'`. */
  prefix?: string;
  /** console-like or pino-like; any subset of debug/info/warn/error. Default: console. */
  logger?: Logger;
  /** Called for every skipped claim (metrics, alerts). Errors it throws are logged and ignored. */
  onSkip?: (event: SkipEvent) => void;
  /** Called for every claim, renewal and lease loss (see GuardEvent). Errors it throws are logged and ignored. */
  onEvent?: (event: GuardEvent) => void;
  /** OpenTelemetry metrics: `true` (the global MeterProvider of `@opentelemetry/api`) or `{ meterProvider }`. */
  metrics?: MetricsOption;
  /** Which backend `client` is; recognised by shape when omitted. */
  store?: LeaseStoreKind;
}

/**
 * A Redis client (ioredis/iovalkey Redis or Cluster, node-redis client or cluster), a PostgreSQL
 * client with `{ store: 'postgres' }`, or a ready LeaseStore.
 */
export type LeaseClient = object;

export interface LeaseConfig {
  /** null = local mode: every claim succeeds. */
  readonly store: LeaseStore | null;
  /** The store's plain acquire for claimPeriod/claimOnce, when it has one (looked up once, not per claim). */
  readonly rawAcquire: RawAcquire | undefined;
  readonly timeoutMs: number;
  readonly prefix: string;
  readonly logger: Logger;
  readonly onSkip: ((event: SkipEvent) => void) | undefined;
  /** null when neither onEvent nor metrics is set. */
  readonly observer: Observer | null;
  /** Local mode is announced once per setLeaseClient. */
  localModeAnnounced: boolean;
  /** A lease table without the fence column is reported once. */
  fencingWarned?: boolean;
}

export const DEFAULT_TIMEOUT_MS = 2000;
export const DEFAULT_PREFIX = 'replica-guard:';

let config: LeaseConfig = {
  store: null,
  rawAcquire: undefined,
  timeoutMs: DEFAULT_TIMEOUT_MS,
  prefix: DEFAULT_PREFIX,
  logger: defaultLogger,
  onSkip: undefined,
  observer: null,
  localModeAnnounced: false,
};

/**
 * Sets the lease backend for every guard in this process; call once at startup. `null` switches
 * to local mode (every claim succeeds — for development, announced in the log).
 */
export function setLeaseClient(client: LeaseClient | null, options: LeaseClientOptions = {}): void {
  config = buildLeaseConfig('setLeaseClient', client, options);
}

/** Validates a client and its options into a LeaseConfig; every bad input is an InvalidArgumentError naming it. */
export function buildLeaseConfig(
  where: string,
  client: LeaseClient | null | undefined,
  options: LeaseClientOptions | undefined,
): LeaseConfig {
  if (options === undefined) options = {};
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError(`${where}: options must be an object, got ${show(options)}`);
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  assertPositiveInteger(where, 'options.timeoutMs', timeoutMs);
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  if (typeof prefix !== 'string') throw new InvalidArgumentError(`${where}: options.prefix must be a string, got ${show(prefix)}`);
  if (options.onSkip !== undefined && typeof options.onSkip !== 'function') {
    throw new InvalidArgumentError(`${where}: options.onSkip must be a function, got ${show(options.onSkip)}`);
  }
  if (options.logger !== undefined && (typeof options.logger !== 'object' || options.logger === null)) {
    throw new InvalidArgumentError(`${where}: options.logger must be a console-like object, got ${show(options.logger)}`);
  }
  if (client !== null && client !== undefined && typeof client !== 'object' && typeof client !== 'function') {
    throw new InvalidArgumentError(`${where}: client must be a Redis/PostgreSQL client, a LeaseStore or null, got ${show(client)}`);
  }
  const logger = options.logger ?? defaultLogger;
  const observer = createObserver(where, options.onEvent, options.metrics, logger);
  const store = client === null || client === undefined ? null : resolveLeaseStore(client, options, where);
  const rawAcquire = store ? (store as { [RAW_ACQUIRE]?: RawAcquire })[RAW_ACQUIRE] : undefined;
  return { store, rawAcquire, timeoutMs, prefix, logger, onSkip: options.onSkip, observer, localModeAnnounced: false };
}

export function currentLeaseConfig(): LeaseConfig {
  return config;
}
