// Which files a run leaves alone before reading or parsing them: files above `--max-file-size`
// (decided from `stat`, the text is never read) and files whose header says a generator wrote
// them (`@generated`, `Code generated … DO NOT EDIT`, `auto-generated`), unless
// `--include-generated`. Both are listed as skipped, with how to include them; neither is an error.
//
// Why a limit at all: the codemod parses with the parser the user's ESLint config names, and
// `@typescript-eslint/parser` alone costs about 11 s and 1.3 GB on a 5 MB TypeScript file before
// any rule runs (docs/performance.md, "The parser's own floor"); a rewrite parses twice. Biome
// skips files above 1 MiB by default in the same way (`files.maxSize`).
import { statSync } from 'node:fs';
import { CodemodUsageError, type CodemodOptions } from './report.js';
import { generatorMarkerIn, headerComments } from '../../analysis/source/generated-file.js';

const KB = 1024;
const MB = 1024 * KB;

/** The default `--max-file-size`: 1 MB (1,048,576 bytes), as Biome's `files.maxSize`. */
export const DEFAULT_MAX_FILE_SIZE = MB;

export interface FileLimits {
  /** Bytes; a file larger than this is not read. `Infinity`: no limit. */
  maxFileSize: number;
  includeGenerated: boolean;
}

const SIZE = /^(\d+(?:\.\d+)?|\.\d+)\s*(b|kb|mb)?$/i;

/**
 * `--max-file-size`: bytes (`500000`, `500000b`), `kb` or `mb` (1024-based; `1.5mb`), or `0` /
 * `none` for no limit. Returns bytes (`Infinity` for no limit); throws on anything else.
 */
export function parseFileSize(value: string): number {
  const trimmed = value.trim().replace(/_/g, '');
  if (/^none$/i.test(trimmed)) return Number.POSITIVE_INFINITY;
  const match = SIZE.exec(trimmed);
  const unit = match?.[2]?.toLowerCase();
  const bytes = match ? Math.floor(Number(match[1]) * (unit === 'mb' ? MB : unit === 'kb' ? KB : 1)) : Number.NaN;
  if (!Number.isSafeInteger(bytes))
    throw new Error(`--max-file-size must be a size in bytes, kb or mb (for example 2mb), or 0 or 'none' for no limit, got '${value}'`);
  return bytes === 0 ? Number.POSITIVE_INFINITY : bytes;
}

/** The run's limits from the API options (`maxFileSize` in bytes, 0 or `Infinity`: no limit). */
export function fileLimitsOf(options: Pick<CodemodOptions, 'maxFileSize' | 'includeGenerated'>): FileLimits {
  const size = options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE;
  if (!(size === Number.POSITIVE_INFINITY || (Number.isSafeInteger(size) && size >= 0)))
    throw new CodemodUsageError(`maxFileSize must be a whole number of bytes (0 or Infinity for no limit), got ${String(size)}`);
  return { maxFileSize: size === 0 ? Number.POSITIVE_INFINITY : size, includeGenerated: options.includeGenerated ?? false };
}

/** `812 bytes`, `12.3 kB`, `1 MB`, `5.2 MB` (1024-based, as the option reads them). */
export function formatSize(bytes: number): string {
  if (bytes < KB) return `${bytes} bytes`;
  const [value, unit] = bytes < MB ? [bytes / KB, 'kB'] : [bytes / MB, 'MB'];
  return `${value.toFixed(1).replace(/\.0$/, '')} ${unit}`;
}

/** The smallest whole `kb` or `mb` value of `--max-file-size` that lets `bytes` through. */
const sizeToInclude = (bytes: number): string => (bytes < MB ? `${Math.ceil(bytes / KB)}kb` : `${Math.ceil(bytes / MB)}mb`);

/** Why `path` is not read, when its size (from `stat`) is above the limit; else undefined. */
export function oversizeReason(path: string, limits: FileLimits): string | undefined {
  if (limits.maxFileSize === Number.POSITIVE_INFINITY) return undefined;
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    return undefined; // the read that follows reports it
  }
  if (size <= limits.maxFileSize) return undefined;
  // Rounded alike (1 MB above 1 MB), the sizes are given in bytes.
  const [file, limit] =
    formatSize(size) === formatSize(limits.maxFileSize)
      ? [size, limits.maxFileSize].map((n) => `${n.toLocaleString('en-US')} bytes`)
      : [formatSize(size), formatSize(limits.maxFileSize)];
  return (
    `${file}, above --max-file-size ${limit}: not read or parsed; ` +
    `include it with --max-file-size ${sizeToInclude(size)}, or --max-file-size 0 for no limit`
  );
}

/** The generated-code marker in `text`'s header comments, by name; undefined when there is none. */
export const generatedMarker = (text: string): string | undefined => generatorMarkerIn(headerComments(text));

/** Why a generated file is left alone. */
export const generatedReason = (marker: string): string =>
  `generated (its header says "${marker}"): a rewrite would be lost when it is generated again, so fix its generator; ` +
  `include it with --include-generated`;
