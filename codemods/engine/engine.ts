// The codemod engine: discover files → text pre-filter → the rules' own detection → each
// transform's edits → `replica-guard` import → detection again (what is still found gets a
// manual marker and a follow-up) → project steps → write atomically (or diff, or check).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { Finding, ReplicaGuardRule } from '../../rules/utils/create-rule.js';
import { discoverFiles } from './discover-files.js';
import { fileStyleOf } from './file-style.js';
import { markerAbove, markerEdits } from './manual-marker.js';
import { packageInfoFor } from './package-info.js';
import { findTransforms, transforms as registered } from '../registry.js';
import { replicaGuardImportEdits } from './replica-guard-import.js';
import { runDetection, type Detection } from './run-detection.js';
import { applyEdits, lineAt } from './text-edits.js';
import type { AnyTransform, ManualNote, SourceFileInfo, TextEdit } from './transform.js';
import { fileWorkerScript, transformInWorkers, type WorkerScript } from './worker-pool.js';

/** Below this many files `concurrency` is ignored: starting threads costs more than it saves. */
export const MIN_FILES_FOR_WORKERS = 200;

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
  /** Write even when the git tree has uncommitted changes under the paths. */
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
  /** Whether files were written (false for dry runs and checks). */
  written: boolean;
}

export class CodemodUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CodemodUsageError';
  }
}

/** Uncommitted changes under `paths`, or `undefined` when `cwd` is not in a git work tree. */
export function dirtyFiles(cwd: string, paths: readonly string[]): string[] | undefined {
  try {
    const out = execFileSync('git', ['status', '--porcelain', '--', ...paths], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return out.split('\n').filter((l) => l.trim().length > 0);
  } catch {
    return undefined;
  }
}

/** Write via a temp file in the same directory and a rename, keeping the file's mode. */
export function writeFileAtomic(path: string, text: string): void {
  const temp = join(dirname(path), `.${basename(path)}.replica-codemod-${process.pid}-${Math.random().toString(36).slice(2)}.tmp`);
  try {
    writeFileSync(temp, text);
    chmodSync(temp, statSync(path).mode);
    renameSync(temp, path);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // already gone
    }
    throw error;
  }
}

interface FileResult {
  text: string;
  fixed: number;
  fixedBy: Map<string, number>;
  manual: Array<{ line: number; reason: string; transform: string }>;
}

/** One file's per-file phase: unreadable, or read and then transformed or failed. */
export type FileOutcome =
  | { path: string; readError: string }
  | { path: string; original: string; error: string }
  | { path: string; original: string; result: FileResult };

const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Maps an offset in the text before `edits` to the text after them. */
function mapOffset(edits: readonly TextEdit[], offset: number): number {
  let delta = 0;
  for (const edit of edits)
    if (edit.end <= offset && !(edit.start === offset && edit.end === offset)) delta += edit.text.length - (edit.end - edit.start);
  return offset + delta;
}

// Where a finding sits: its narrow `loc` when the rule gave one (a column name inside a SQL
// string can be lines below the call's start), else its node. Markers go above that line, where
// the lint message is.
const findingOffset = (text: string, finding: Finding): number =>
  finding.loc ? offsetOfLoc(text, finding.loc.start) : finding.node.range[0];

/** ESLint's 1-based line / 0-based column to an offset, with ESLint's line breaks. */
function offsetOfLoc(text: string, position: { line: number; column: number }): number {
  const lineBreak = /\r\n|[\r\n\u2028\u2029]/g;
  let start = 0;
  for (let line = 1; line < position.line; line += 1) {
    const match = lineBreak.exec(text);
    if (!match) break;
    start = match.index + match[0].length;
  }
  return Math.min(text.length, start + position.column);
}

export class Engine {
  readonly transforms: AnyTransform[];
  private readonly settings: Record<string, unknown>;

  constructor(
    transforms: AnyTransform[],
    private readonly options: { service?: string; settings?: Record<string, unknown>; ttlMs?: number } = {},
  ) {
    this.transforms = transforms;
    this.settings = options.settings ?? {};
  }

  private detect(path: string, text: string, transforms: readonly AnyTransform[]): Detection {
    return this.detectWith(path, text, [...new Set(transforms.map((t) => t.rule))]);
  }

  private detectWith(path: string, text: string, rules: ReadonlyArray<ReplicaGuardRule<string, readonly unknown[], unknown>>): Detection {
    const packageType = packageInfoFor(dirname(path)).type;
    const service = this.serviceFor(path);
    const settings = { ...this.settings, 'replica-guard': { service, ...((this.settings['replica-guard'] as object | undefined) ?? {}) } };
    return runDetection(path, text, rules, { packageType, settings });
  }

  serviceFor(path: string): string {
    return this.options.service ?? packageInfoFor(dirname(path)).service;
  }

  parse(path: string, text: string): SourceFileInfo {
    const detection = this.detect(path, text, []);
    return this.fileInfo(path, text, detection);
  }

  private fileInfo(path: string, text: string, detection: Detection): SourceFileInfo {
    const packageType = packageInfoFor(dirname(path)).type;
    return { path, text, ast: detection.ast, sourceCode: detection.sourceCode, style: fileStyleOf(path, text, detection.ast, packageType) };
  }

  /** Transforms one file's text. Throws when the file does not parse or the result would not. */
  transformFile(path: string, text: string): FileResult {
    // ESLint drops a byte-order mark from the text its ranges point into: work without it.
    if (text.startsWith('\uFEFF')) {
      const result = this.transformFile(path, text.slice(1));
      return { ...result, text: `\uFEFF${result.text}` };
    }
    const candidates = this.transforms.filter((t) => t.prefilter.some((word) => text.includes(word)) && (t.mayMatch?.(text) ?? true));
    if (candidates.length === 0) return { text, fixed: 0, fixedBy: new Map(), manual: [] };
    const before = this.detect(path, text, candidates);
    const file = this.fileInfo(path, text, before);
    const context = { service: this.serviceFor(path), ...(this.options.ttlMs === undefined ? {} : { ttlMs: this.options.ttlMs }) };
    const edits: TextEdit[] = [];
    const imports: string[] = [];
    const notes: Array<ManualNote & { transform: string }> = [];
    const fixedBy = new Map<string, number>();
    for (const transform of candidates) {
      const findings = before.findings.get(transform.rule.name) ?? [];
      fixedBy.set(transform.name, findings.length);
      // A finding under a marker was left for a human on an earlier run: leave it alone.
      const open = findings.filter((f) => markerAbove(text, findingOffset(text, f)) === undefined);
      if (open.length === 0) continue;
      const output = transform.apply(file, open, context);
      edits.push(...output.edits);
      if (output.edits.length > 0) imports.push(...output.imports);
      for (const note of output.manual) notes.push({ ...note, transform: transform.name });
    }
    const allEdits = [...edits, ...replicaGuardImportEdits(text, file.ast, file.style, imports)];
    const rewritten = allEdits.length > 0 ? applyEdits(text, allEdits) : text;
    let after: Detection;
    try {
      after = rewritten === text ? before : this.detect(path, rewritten, candidates);
    } catch (error) {
      throw new Error(`the rewrite produced code that does not parse (${errorMessage(error)}); file left unchanged`);
    }
    // What is still found needs a human: a marker (reason from the transform when it gave one).
    const remaining: Array<{ offset: number; reason: string; transform: string }> = [];
    for (const transform of candidates) {
      for (const finding of after.findings.get(transform.rule.name) ?? []) {
        const offset = findingOffset(rewritten, finding);
        const note = notes.find(
          (n) => mapOffset(allEdits, n.offset) === offset || lineAt(rewritten, mapOffset(allEdits, n.offset)) === lineAt(rewritten, offset),
        );
        const reason =
          markerAbove(rewritten, offset) ??
          note?.reason ??
          `the ${transform.name} rewrite did not remove this finding of ${transform.rule.name}`;
        remaining.push({ offset, reason, transform: transform.name });
        fixedBy.set(transform.name, (fixedBy.get(transform.name) ?? 0) - 1);
      }
    }
    const style = fileStyleOf(path, rewritten, after.ast, packageInfoFor(dirname(path)).type);
    const markers = markerEdits(rewritten, remaining, style);
    const final = markers.length > 0 ? applyEdits(rewritten, markers) : rewritten;
    const manual = remaining.map((r) => ({ line: lineAt(final, mapOffset(markers, r.offset)), reason: r.reason, transform: r.transform }));
    const unique = manual.filter((m, i) => manual.findIndex((o) => o.line === m.line && o.transform === m.transform) === i);
    for (const [name, n] of fixedBy) fixedBy.set(name, Math.max(0, n));
    const fixed = [...fixedBy.values()].reduce((a, b) => a + b, 0);
    return { text: final, fixed, fixedBy, manual: unique };
  }

  /** Reads and transforms one file, catching what fails as the report's errors do. */
  transformPath(path: string): FileOutcome {
    let original: string;
    try {
      original = readFileSync(path, 'utf8');
    } catch (error) {
      return { path, readError: errorMessage(error) };
    }
    try {
      return { path, original, result: this.transformFile(path, original) };
    } catch (error) {
      return { path, original, error: errorMessage(error) };
    }
  }

  /** The worker script when this run should use worker threads, else `undefined`. */
  private workerScriptFor(options: CodemodOptions, files: number): WorkerScript | undefined {
    const concurrency = options.concurrency ?? 1;
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new CodemodUsageError(`concurrency must be a positive integer, got ${String(concurrency)}`);
    if (concurrency === 1 || files < (options.minFilesForWorkers ?? MIN_FILES_FOR_WORKERS)) return undefined;
    // Workers rebuild the transforms by registry name: a transform from elsewhere stays serial.
    if (this.transforms.length === 0 || !this.transforms.every((t) => registered.includes(t))) return undefined;
    return fileWorkerScript();
  }

  /** Runs the whole codemod over `options.paths`. */
  async run(options: CodemodOptions): Promise<CodemodReport> {
    const cwd = resolve(options.cwd ?? process.cwd());
    const paths = options.paths && options.paths.length > 0 ? options.paths : ['.'];
    const writing = !options.dryRun && !options.check;
    if (writing && !options.force) {
      const dirty = dirtyFiles(cwd, paths);
      if (dirty && dirty.length > 0) {
        throw new CodemodUsageError(
          `refusing to write into a dirty git tree (${dirty.length} uncommitted change${dirty.length === 1 ? '' : 's'} under ${paths.join(' ')}, e.g. ${dirty[0]!.trim()}); commit or stash first, or pass --force`,
        );
      }
    }
    const { files, skipped } = await discoverFiles(paths, cwd);
    const display = (path: string): string => relative(cwd, path) || basename(path);
    const report: CodemodReport = {
      transforms: this.transforms.map((t) => t.name),
      filesScanned: files.length,
      filesChanged: 0,
      findingsFixed: 0,
      manual: [],
      errors: [],
      skipped: skipped.map((s) => ({ file: display(s.path), reason: s.reason })),
      changes: [],
      written: false,
    };
    const originals = new Map<string, string>();
    const current = new Map<string, string>();
    const fixedBy = new Map<string, number>();
    const fixedIn = new Map<string, number>();
    const created = new Set<string>();
    const record = (outcome: FileOutcome): void => {
      const { path } = outcome;
      if ('readError' in outcome) {
        report.errors.push({ file: display(path), message: outcome.readError });
        return;
      }
      originals.set(path, outcome.original);
      if ('error' in outcome) {
        report.errors.push({ file: display(path), message: outcome.error });
        return;
      }
      const { result } = outcome;
      current.set(path, result.text);
      fixedIn.set(path, result.fixed);
      report.findingsFixed += result.fixed;
      for (const m of result.manual) report.manual.push({ file: display(path), line: m.line, reason: m.reason, transform: m.transform });
      for (const [name, n] of result.fixedBy) fixedBy.set(name, (fixedBy.get(name) ?? 0) + n);
    };
    let done = 0;
    const script = this.workerScriptFor(options, files.length);
    if (script) {
      const setup = {
        transforms: this.transforms.map((t) => t.name),
        service: this.options.service,
        settings: this.settings,
        ttlMs: this.options.ttlMs,
      };
      // `concurrency` threads in all: this one and concurrency − 1 workers.
      const outcomes = await transformInWorkers(files, setup, {
        workers: (options.concurrency ?? 1) - 1,
        script,
        local: (path) => this.transformPath(path),
        onFileDone: (path) => options.onProgress?.((done += 1), files.length, display(path)),
      });
      // Recorded in discovery order, so the report is the serial run's.
      for (const outcome of outcomes) record(outcome);
    } else {
      for (const path of files) {
        options.onProgress?.(done, files.length, display(path));
        done += 1;
        record(this.transformPath(path));
      }
    }
    options.onProgress?.(files.length, files.length, '');

    // Project steps (for example wiring setLeaseClient once) see every file's current text.
    for (const transform of this.transforms) {
      if (!transform.project) continue;
      const view = {
        files: current as ReadonlyMap<string, string>,
        parse: (path: string): SourceFileInfo | undefined => {
          const text = current.get(path);
          if (text === undefined) return undefined;
          try {
            return this.parse(path, text);
          } catch {
            return undefined;
          }
        },
        detect: <Facts>(
          path: string,
          text: string,
          rule: ReplicaGuardRule<string, readonly unknown[], Facts>,
        ): Array<Finding<string, Facts>> => {
          try {
            return (this.detectWith(path, text, [rule as never]).findings.get(rule.name) ?? []) as Array<Finding<string, Facts>>;
          } catch {
            return [];
          }
        },
        relative: display,
        cwd,
        fixed: fixedBy.get(transform.name) ?? 0,
      };
      const output = transform.project(view, {
        service: options.service ?? this.options.service ?? packageInfoFor(cwd).service,
        ...(this.options.ttlMs === undefined ? {} : { ttlMs: this.options.ttlMs }),
      });
      // Whole files (a scaffolded entrypoint, package.json): a new file never replaces an existing one.
      for (const file of output.files ?? []) {
        const exists = current.has(file.path) || existsSync(file.path);
        if (file.create && exists) continue;
        const before = current.get(file.path) ?? (exists ? readFileSync(file.path, 'utf8') : '');
        if (!originals.has(file.path)) originals.set(file.path, before);
        if (file.create) created.add(file.path);
        current.set(file.path, file.text);
      }
      for (const change of output.changes) {
        const file = view.parse(change.path);
        if (!file) continue;
        const edits = [...change.edits, ...replicaGuardImportEdits(file.text, file.ast, file.style, change.imports)];
        const next = applyEdits(file.text, edits);
        try {
          this.parse(change.path, next);
          current.set(change.path, next);
        } catch (error) {
          report.errors.push({
            file: display(change.path),
            message: `the ${transform.name} project step produced code that does not parse: ${errorMessage(error)}`,
          });
        }
      }
      for (const m of output.manual)
        report.manual.push({ file: display(m.path), line: m.line, reason: m.reason, transform: transform.name });
    }

    for (const [path, after] of current) {
      const before = originals.get(path);
      if (before === undefined || before === after) continue;
      report.changes.push({ file: display(path), path, before, after, fixed: fixedIn.get(path) ?? 0 });
    }
    report.filesChanged = report.changes.length;
    if (writing) {
      for (const change of report.changes) {
        try {
          if (created.has(change.path)) {
            mkdirSync(dirname(change.path), { recursive: true });
            writeFileSync(change.path, change.after, { flag: 'wx' });
          } else writeFileAtomic(realpathSync(change.path), change.after);
        } catch (error) {
          report.errors.push({ file: change.file, message: `could not write: ${errorMessage(error)}` });
        }
      }
      report.written = true;
    }
    return report;
  }
}

/** The programmatic API: `runCodemod({ paths: ['src'], dryRun: true })`. */
export async function runCodemod(options: CodemodOptions = {}): Promise<CodemodReport> {
  const transforms = findTransforms(options.transforms);
  const engine = new Engine(transforms, { service: options.service, settings: options.settings, ttlMs: options.ttlMs });
  return engine.run(options);
}
