// Argument checks shared by the guards: each names the function and the argument that was wrong.
import { InvalidArgumentError } from '../errors.js';

export function assertKey(fn: string, name: string, value: unknown): asserts value is string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new InvalidArgumentError(`${fn}: ${name} must be a non-empty string, got ${show(value)}`);
  }
}

export function assertPositiveInteger(fn: string, name: string, value: unknown): asserts value is number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new InvalidArgumentError(`${fn}: ${name} must be a positive integer number of milliseconds, got ${show(value)}`);
  }
}

/** The latest epoch millisecond a JavaScript Date (and so a period or lease end) can name. */
export const MAX_DATE_MS = 8.64e15;

/** Past this a duration may end beyond the last valid Date; below it no clock read is needed (the clock is far from the end). */
const DURATION_NEEDS_CLOCK = MAX_DATE_MS - 1e15;

/** A ttl or period: a positive integer whose end, counted from now, is still a valid Date. */
export function assertDuration(fn: string, name: string, value: unknown): asserts value is number {
  assertPositiveInteger(fn, name, value);
  if (value > DURATION_NEEDS_CLOCK && Date.now() + value > MAX_DATE_MS) {
    throw new InvalidArgumentError(`${fn}: ${name} of ${value} ms ends past the last valid Date (${MAX_DATE_MS} ms after the epoch)`);
  }
}

const NO_OPTIONS: Record<string, never> = Object.freeze({});

/** `options` is optional; when given it must be an object (null is refused by name, not with a TypeError). */
export function optionsObject<O extends object>(fn: string, value: O | undefined): O | Record<string, never> {
  if (value === undefined) return NO_OPTIONS;
  if (typeof value !== 'object' || value === null) {
    throw new InvalidArgumentError(`${fn}: options must be an object, got ${show(value)}`);
  }
  return value;
}

export function assertFunction(fn: string, name: string, value: unknown): asserts value is (...args: never[]) => unknown {
  if (typeof value !== 'function') {
    throw new InvalidArgumentError(`${fn}: ${name} must be a function, got ${show(value)}`);
  }
}

export function assertOptionalNow(fn: string, value: unknown): asserts value is number | undefined {
  if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > 8.64e15)) {
    throw new InvalidArgumentError(
      `${fn}: options.now must be a finite epoch-milliseconds number within the Date range, got ${show(value)}`,
    );
  }
}

export function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'function') return 'a function';
  if (value === null || typeof value !== 'object') return String(value);
  try {
    return JSON.stringify(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
