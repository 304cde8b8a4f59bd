// The logger the guards write to: anything console-like or pino-like. Only the methods present
// are used, and every line is one self-contained string (the key, what happened, why), because
// console and pino disagree about where structured fields go.

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Any subset of `debug`/`info`/`warn`/`error`, e.g. `console`, a pino logger, a Nest `Logger`. */
export type Logger = Partial<Record<LogLevel, (message: string, ...rest: unknown[]) => unknown>>;

/** The default: console, without `debug` (a skipped tick is normal and not worth a line). */
export const defaultLogger: Logger = {
  info: (message) => console.info(message),
  warn: (message) => console.warn(message),
  error: (message) => console.error(message),
};

/** Whether `logger` writes `level` at all: check before building a line that is often dropped. */
export function logs(logger: Logger, level: LogLevel): boolean {
  return typeof logger[level] === 'function';
}

/** Writes one line; a missing method drops it, and a throwing logger never breaks a guard. */
export function writeLog(logger: Logger, level: LogLevel, message: string): void {
  const method = logger[level];
  if (typeof method !== 'function') return;
  try {
    method.call(logger, `replica-guard: ${message}`);
  } catch {
    // A logger must not change whether a job runs.
  }
}

/** `error.message` with its code, for log lines. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}
