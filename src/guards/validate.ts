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

export function assertFunction(fn: string, name: string, value: unknown): asserts value is (...args: never[]) => unknown {
  if (typeof value !== 'function') {
    throw new InvalidArgumentError(`${fn}: ${name} must be a function, got ${show(value)}`);
  }
}

export function assertOptionalNow(fn: string, value: unknown): asserts value is number | undefined {
  if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value))) {
    throw new InvalidArgumentError(`${fn}: options.now must be a finite epoch-milliseconds number, got ${show(value)}`);
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
