// Every error the runtime throws is a ReplicaGuardError with a stable `code` and, where another
// error caused it, that error as `cause`.

export type ReplicaGuardErrorCode =
  | 'INVALID_ARGUMENT'
  | 'UNKNOWN_CLIENT'
  | 'BACKEND_UNAVAILABLE'
  | 'BACKEND_TIMEOUT'
  | 'LEASE_LOST'
  | 'FENCING_TOKEN_REJECTED'
  | 'LEASE_TABLE_MISSING'
  | 'MIGRATE_URL_MISSING'
  | 'MIGRATE_URL_POOLER'
  | 'MIGRATE_LOCK_TIMEOUT'
  | 'MIGRATOR_MISSING'
  | 'MIGRATION_FAILED'
  | 'PUBLISH_FAILED';

export class ReplicaGuardError extends Error {
  readonly code: ReplicaGuardErrorCode;

  constructor(code: ReplicaGuardErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
  }
}

/** A caller passed something the API cannot use (an empty key, a non-positive ttl, a bad cron). */
export class InvalidArgumentError extends ReplicaGuardError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('INVALID_ARGUMENT', message, options);
  }
}

/** `setLeaseClient` was given an object that is not a client shape replica-guard knows. */
export class UnknownClientError extends ReplicaGuardError {
  constructor(message: string) {
    super('UNKNOWN_CLIENT', message);
  }
}

/** The lease backend did not answer, answered with an error, or was not connected. */
export class BackendUnavailableError extends ReplicaGuardError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('BACKEND_UNAVAILABLE', message, options);
  }
}

/** The lease backend did not answer within `timeoutMs`. */
export class BackendTimeoutError extends ReplicaGuardError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('BACKEND_TIMEOUT', message, options);
  }
}

/** A held lease was taken over, expired, or could not be renewed; the run's signal aborts with this. */
export class LeaseLostError extends ReplicaGuardError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('LEASE_LOST', message, options);
  }
}

/** A JetStream publish was not acknowledged (no stream for the subject, a timeout, a server error). */
export class PublishFailedError extends ReplicaGuardError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('PUBLISH_FAILED', message, options);
  }
}

/**
 * A fenced write was refused: the resource already saw a newer fencing token, so the lease this
 * token came from was taken over (the holder was paused or partitioned past its lease).
 */
export class FencingTokenRejectedError extends ReplicaGuardError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('FENCING_TOKEN_REJECTED', message, options);
  }
}
