// What a codemod run is asked (options) and what it answers (the report), and the per-file
// outcome the worker threads send back — shared by the engine, the worker pool and the CLI.
import type { WrittenKey } from './lease-keys.js';

export interface CodemodOptions {
  /** Files or directories, relative to `cwd`. Default `['.']`. */
  paths?: string[];
  cwd?: string;
  /** Transform names; default every transform in the registry. */
  transforms?: string[];
  /** Compute everything, write nothing. */
  dryRun?: boolean;
  /** Like `dryRun`; the report's `wouldChange` says whether anything would change. */
  check?: boolean;
  /** `<service>` in lease keys; default the nearest package.json `name` without its scope. */
  service?: string;
  /** Lease ttl (ms) for transforms that write `runExclusive` (`--ttl`). */
  ttlMs?: number;
  /** Write even when the git tree has uncommitted changes under the paths, or its state cannot be read. */
  force?: boolean;
  /** `settings` handed to the rules, as in eslint.config.js (`{ 'replica-guard': { … } }`). */
  settings?: Record<string, unknown>;
  onProgress?: (done: number, total: number, file: string) => void;
  /**
   * Threads for the per-file phase (read + transform): this one and `concurrency − 1` worker
   * threads; default 1, this thread alone. Discovery, project steps, writing and the report
   * order stay on this thread.
   */
  concurrency?: number;
  /** Fewer files than this run in this thread whatever `concurrency` says; default 200. */
  minFilesForWorkers?: number;
  /**
   * Files larger than this many bytes are skipped (listed, never read or parsed): `--max-file-size`.
   * Default 1,048,576 (1 MB); `0` or `Infinity`: no limit.
   */
  maxFileSize?: number;
  /** Also rewrite files whose header marks them generated (`@generated`, …): `--include-generated`. */
  includeGenerated?: boolean;
}

export interface ManualFollowUp {
  /** Path relative to `cwd`. */
  file: string;
  line: number;
  reason: string;
  transform: string;
}

export interface FileFailure {
  file: string;
  message: string;
}

export interface FileChange {
  file: string;
  /** Absolute path. */
  path: string;
  before: string;
  after: string;
  fixed: number;
}

export interface CodemodReport {
  transforms: string[];
  filesScanned: number;
  filesChanged: number;
  findingsFixed: number;
  manual: ManualFollowUp[];
  errors: FileFailure[];
  skipped: Array<{ file: string; reason: string }>;
  changes: FileChange[];
  /** Every lease key the run wrote, after making them unique (files relative to `cwd`). */
  leaseKeys: Array<{ key: string; file: string; line: number }>;
  /** What the run wants the user to know that is about no one file (an ESLint config it could not read). */
  notes: string[];
  /** Whether files were written (false for dry runs and checks). */
  written: boolean;
}

export class CodemodUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CodemodUsageError';
  }
}

/** One file's result after its transforms ran. */
export interface FileResult {
  text: string;
  fixed: number;
  fixedBy: Map<string, number>;
  manual: Array<{ line: number; reason: string; transform: string }>;
  /** Lease keys the transforms wrote into this file, before the run makes them unique. */
  leaseKeys: WrittenKey[];
}

/** One file's per-file phase: unreadable, or read and then transformed or failed. */
export type FileOutcome =
  | { path: string; readError: string }
  /** Left alone: not UTF-8 (rewriting it would replace its bytes with U+FFFD), too large, or generated. */
  | { path: string; skip: string }
  | { path: string; original: string; error: string }
  | { path: string; original: string; result: FileResult };

export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));
