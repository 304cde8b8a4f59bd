// The codemod engine: discover files → text pre-filter → the rules' own detection → each
// transform's edits → `replica-guard` import → detection again (what is still found gets a
// manual marker and a follow-up) → project steps → write atomically (or diff, or check).
import { basename, dirname, relative, resolve } from 'node:path';
import type { Finding } from '../../rules/utils/create-rule.js';
import { runtimeImportEdits } from '../../rules/rewrites/runtime-import.js';
import { discoverFiles } from './discover-files.js';
import { fileStyleOf } from './file-style.js';
import { assertSafeToWrite } from './git-state.js';
import { insertedSpans, writtenKeys, type WrittenKey } from './lease-keys.js';
import { assertLiteralsKept, literalTokens, markerAnchor } from './literal-invariant.js';
import { markerAbove } from './manual-marker.js';
import { findingOffset, markRemaining } from './remaining-findings.js';
import { packageInfoFor, type PackageInfo } from './package-info.js';
import { lintConfigsFor, type FileLintConfig, type LintConfigs } from './lint-config.js';
import { PLUGIN_NAME } from '../../rules/utils/plugin-meta.js';
import { invalidServiceName } from '../../rules/rewrites/service-name.js';
import { keysElsewhere, makeKeysUnique } from './key-pass.js';
import { runProjectSteps, type RunState } from './project-steps.js';
import { findTransforms, transforms as registered } from '../registry.js';
import { CodemodUsageError, errorMessage, type CodemodOptions, type CodemodReport, type FileOutcome, type FileResult } from './report.js';
import { findingsOf, runDetection, type Detection } from './run-detection.js';
import { applyEdits, mapOffset } from './text-edits.js';
import type { AnyTransform, ManualNote, RuleWithFacts, SourceFileInfo, TextEdit, TransformContext } from './transform.js';
import { fileWorkerScript, transformInWorkers, type WorkerScript } from './worker-pool.js';
import { mayReport, readSource, textCandidates, textPass, unchangedResult, type RuleRunFor } from './prefilter.js';
import { writableRoots, writeChanges } from './write-files.js';

export { CodemodUsageError } from './report.js';
export type { CodemodOptions, CodemodReport, FileChange, FileFailure, FileOutcome, ManualFollowUp } from './report.js';
export { dirtyFiles } from './git-state.js';
export { writeFileAtomic } from './write-files.js';

/** Below this many files `concurrency` is ignored: starting threads costs more than it saves. */
export const MIN_FILES_FOR_WORKERS = 200;

export interface EngineOptions {
  service?: string;
  /** The run's root: no package.json above it names the service. Set by `run` from its `cwd`. */
  root?: string;
  /** How lint sees each file (the user's ESLint config). Set by `run`; handed to worker threads. */
  lintConfigs?: LintConfigs;
  settings?: Record<string, unknown>;
  ttlMs?: number;
}

export class Engine {
  readonly transforms: AnyTransform[];
  private readonly settings: Record<string, unknown>;
  private root: string | undefined;
  private lintConfigs: LintConfigs | undefined;

  constructor(
    transforms: AnyTransform[],
    private readonly options: EngineOptions = {},
  ) {
    this.transforms = transforms;
    this.settings = options.settings ?? {};
    this.root = options.root;
    this.lintConfigs = options.lintConfigs;
    if (options.service !== undefined) {
      const invalid = invalidServiceName(options.service);
      if (invalid) throw new CodemodUsageError(`invalid service name '${options.service}': ${invalid}`);
    }
  }

  /** How lint sees `path`: the user's config for it, once `run` has read it. */
  private lintConfigOf(path: string): FileLintConfig | undefined {
    const index = this.lintConfigs?.byPath[path];
    return index === undefined ? undefined : this.lintConfigs?.configs[index];
  }

  /** `settings['replica-guard']` as lint gives it to the rules for `path`, under this run's own settings. */
  private ownSettings(path: string): Record<string, unknown> {
    const user = this.lintConfigOf(path)?.settings[PLUGIN_NAME];
    const own = this.settings[PLUGIN_NAME];
    return { ...(typeof user === 'object' && user ? user : {}), ...(typeof own === 'object' && own ? own : {}) };
  }

  /** The settings lint gives the rules for `path`, with this run's own on top. */
  private settingsFor(path: string): Record<string, unknown> {
    const settings = this.lintConfigOf(path)?.settings;
    return { ...settings, ...this.settings, [PLUGIN_NAME]: { ...this.ownSettings(path), service: this.serviceFor(path) } };
  }

  private detect(path: string, text: string, rules: readonly RuleWithFacts[]): Detection {
    const config = this.lintConfigOf(path);
    const settings = this.settingsFor(path);
    const runs = [...new Set(rules)].map((rule) => ({ rule, options: config?.rules?.[rule.name] }));
    return runDetection(path, text, runs, { packageType: this.packageOf(path).type, settings, prefix: config?.prefix });
  }

  /** Whether `transform`'s rule runs on `path` and its own pre-check lets `text` through (no parse). */
  private mayChange(path: string, text: string, transform: AnyTransform, run: Omit<RuleRunFor, 'options'>): boolean {
    if (!this.ruleEnabled(path, transform)) return false;
    return mayReport(transform.rule, path, text, { ...run, options: this.lintConfigOf(path)?.rules?.[transform.rule.name] });
  }

  /** Whether lint runs `transform`'s rule on `path` (every rule when the config does not name the plugin). */
  private ruleEnabled(path: string, transform: AnyTransform): boolean {
    const rules = this.lintConfigOf(path)?.rules;
    return rules === undefined || transform.rule.name in rules;
  }

  /** One rule's findings in a text (project steps that need their own facts). */
  detectRule<Facts>(path: string, text: string, rule: RuleWithFacts<Facts>): Array<Finding<string, Facts>> {
    return findingsOf(this.detect(path, text, [rule]), rule);
  }

  private packageOf(path: string): PackageInfo {
    return packageInfoFor(dirname(path), this.root);
  }

  /** `--service`, else the service the lint settings name, else the package's. */
  serviceFor(path: string): string {
    const configured = this.ownSettings(path).service;
    return this.options.service ?? (typeof configured === 'string' && configured !== '' ? configured : this.packageOf(path).service);
  }

  parse(path: string, text: string): SourceFileInfo {
    return this.fileInfo(path, text, this.detect(path, text, []));
  }

  private fileInfo(path: string, text: string, detection: Detection): SourceFileInfo {
    const packageType = this.packageOf(path).type;
    return { path, text, ast: detection.ast, sourceCode: detection.sourceCode, style: fileStyleOf(path, text, detection.ast, packageType) };
  }

  private contextFor(service: string): TransformContext {
    return { service, ...(this.options.ttlMs === undefined ? {} : { ttlMs: this.options.ttlMs }) };
  }

  /**
   * Detection, then each transform's edits and the import they need: the rewritten text, before it
   * is checked. Undefined when no rule found anything: the file stays as it is, and nothing is
   * built for edits (its style, its literals) — most parsed files of a repository end here.
   */
  private rewrite(path: string, text: string, candidates: readonly AnyTransform[]) {
    const before = this.detect(
      path,
      text,
      candidates.map((t) => t.rule),
    );
    if (candidates.every((t) => (before.findings.get(t.rule.name)?.length ?? 0) === 0)) return undefined;
    const file = this.fileInfo(path, text, before);
    const context = this.contextFor(this.serviceFor(path));
    const edits: TextEdit[] = [];
    const imports: string[] = [];
    const notes: Array<ManualNote & { transform: string }> = [];
    const fixedBy = new Map<string, number>();
    for (const transform of candidates) {
      const findings = before.findings.get(transform.rule.name) ?? [];
      fixedBy.set(transform.name, findings.length);
      // A finding under a marker was left for a human on an earlier run: leave it alone.
      const open = findings.filter((f) => markerAbove(text, markerAnchor(before.sourceCode, findingOffset(text, f))) === undefined);
      if (open.length === 0) continue;
      const output = transform.apply(file, open, context);
      edits.push(...(transform.rewritesLiterals ? output.edits.map((edit) => ({ ...edit, literal: true as const })) : output.edits));
      if (output.edits.length > 0) imports.push(...output.imports);
      for (const note of output.manual) notes.push({ ...note, transform: transform.name });
    }
    const allEdits = [...edits, ...runtimeImportEdits(text, file.ast, file.style, imports)];
    const rewritten = allEdits.length > 0 ? applyEdits(text, allEdits) : text;
    const unchanged = rewritten === text ? before : undefined;
    return { rewritten, allEdits, notes, fixedBy, beforeLiterals: unchanged ? [] : literalTokens(before.ast), unchanged };
  }

  /** Transforms one file's text. Throws when the file does not parse or the result would not. */
  transformFile(path: string, text: string): FileResult {
    // ESLint drops a byte-order mark from the text its ranges point into: work without it.
    if (text.startsWith('\uFEFF')) {
      const result = this.transformFile(path, text.slice(1));
      const leaseKeys = result.leaseKeys.map((k) => ({ ...k, start: k.start + 1, end: k.end + 1 }));
      return { ...result, text: `\uFEFF${result.text}`, leaseKeys };
    }
    if (this.lintConfigOf(path)?.ignored) return unchangedResult(text);
    // Parsed only for the transforms whose words, text check and rule pre-check the text passes.
    // The rules see the file's folder as ESLint's cwd (runDetection's Linter), so the pre-check does too.
    const run = { settings: this.settingsFor(path), cwd: dirname(path) };
    const candidates = textCandidates(text, this.transforms).filter((t) => this.mayChange(path, text, t, run));
    if (candidates.length === 0) return unchangedResult(text);
    const rules = candidates.map((t) => t.rule);
    // The first parse is dropped before the second: on a big file two ASTs at once cost gigabytes.
    const rewrite = this.rewrite(path, text, candidates);
    if (!rewrite) return unchangedResult(text);
    const { rewritten, allEdits, notes, fixedBy, beforeLiterals, unchanged } = rewrite;
    let after: Detection;
    try {
      after = unchanged ?? this.detect(path, rewritten, rules);
    } catch (error) {
      throw new Error(`the rewrite produced code that does not parse (${errorMessage(error)}); file left unchanged`);
    }
    const afterLiterals = literalTokens(after.ast);
    if (!unchanged) assertLiteralsKept(text, beforeLiterals, allEdits, afterLiterals);
    const { final, markers, manual } = markRemaining(
      { path, rewritten, after, candidates, notes, allEdits, fixedBy },
      afterLiterals,
      this.packageOf(path).type,
    );
    for (const [name, n] of fixedBy) fixedBy.set(name, Math.max(0, n));
    const fixed = [...fixedBy.values()].reduce((a, b) => a + b, 0);
    const leaseKeys = unchanged ? [] : writtenKeys(after.ast, insertedSpans(allEdits), (offset) => mapOffset(markers, offset));
    return { text: final, fixed, fixedBy, manual, leaseKeys };
  }

  /** Transforms one file (read here unless its text is given), catching what fails as the report's errors do. */
  transformPath(path: string, text?: string): FileOutcome {
    const source = text === undefined ? readSource(path) : { text };
    if (!('text' in source)) return source;
    const original = source.text;
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

  /** The per-file phase over `files`, in this thread or spread over workers; outcomes in discovery order. */
  private async transformAll(
    files: readonly string[],
    options: CodemodOptions,
    display: (path: string) => string,
    texts: ReadonlyMap<string, string>,
  ): Promise<FileOutcome[]> {
    // This thread has each file's text from the first pass; a worker reads its own.
    const local = (path: string): FileOutcome => this.transformPath(path, texts.get(path));
    let done = 0;
    const script = this.workerScriptFor(options, files.length);
    if (script) {
      const setup = { transforms: this.transforms.map((t) => t.name), ...this.options, root: this.root, lintConfigs: this.lintConfigs };
      // `concurrency` threads in all: this one and concurrency − 1 workers.
      return transformInWorkers(files, setup, {
        workers: (options.concurrency ?? 1) - 1,
        script,
        local,
        onFileDone: (path) => options.onProgress?.((done += 1), files.length, display(path)),
      });
    }
    const outcomes: FileOutcome[] = [];
    for (const path of files) {
      options.onProgress?.(done, files.length, display(path));
      done += 1;
      outcomes.push(local(path));
    }
    return outcomes;
  }

  /** Runs the whole codemod over `options.paths`. */
  async run(options: CodemodOptions): Promise<CodemodReport> {
    const cwd = resolve(options.cwd ?? process.cwd());
    this.root ??= cwd;
    const paths = options.paths && options.paths.length > 0 ? options.paths : ['.'];
    const writing = !options.dryRun && !options.check;
    if (writing && !options.force) assertSafeToWrite(cwd, paths);
    const { files, skipped } = await discoverFiles(paths, cwd);
    // Every file read once; only those a transform's text pre-filter passes go further.
    const pass = textPass(files, this.transforms, options);
    const lint = await lintConfigsFor(cwd, [...pass.candidates.keys()]);
    this.lintConfigs = lint.configs;
    // A candidate the user's ESLint config ignores is one lint never reports: left alone, and said so.
    const ignored = [...pass.candidates.keys()].filter((path) => this.lintConfigOf(path)?.ignored);
    const linted = [...pass.candidates.keys()].filter((path) => !this.lintConfigOf(path)?.ignored);
    const display = (path: string): string => relative(cwd, path) || basename(path);
    const report: CodemodReport = {
      transforms: this.transforms.map((t) => t.name),
      filesScanned: files.length,
      filesChanged: 0,
      findingsFixed: 0,
      manual: [],
      errors: [],
      skipped: [
        ...skipped.map((s) => ({ file: display(s.path), reason: s.reason })),
        ...ignored.map((path) => ({ file: display(path), reason: 'ignored by the ESLint configuration (lint never reports it)' })),
      ],
      changes: [],
      leaseKeys: [],
      notes: lint.note ? [lint.note] : [],
      written: false,
    };
    const state: RunState = { originals: new Map(), current: new Map(), created: new Set(), fixedBy: new Map() };
    const fixedBy = new Map<string, number>();
    const fixedIn = new Map<string, number>();
    const keysIn = new Map<string, WrittenKey[]>();
    const transformed = new Map((await this.transformAll(linted, options, display, pass.candidates)).map((o) => [o.path, o]));
    for (const file of files) {
      const outcome = pass.done.get(file) ?? transformed.get(file);
      if (!outcome) continue;
      if ('readError' in outcome) {
        report.errors.push({ file: display(outcome.path), message: outcome.readError });
        continue;
      }
      if ('skip' in outcome) {
        report.skipped.push({ file: display(outcome.path), reason: outcome.skip });
        continue;
      }
      state.originals.set(outcome.path, outcome.original);
      if ('error' in outcome) {
        report.errors.push({ file: display(outcome.path), message: outcome.error });
        continue;
      }
      const { path, result } = outcome;
      state.current.set(path, result.text);
      fixedIn.set(path, result.fixed);
      if (result.leaseKeys.length > 0) keysIn.set(path, result.leaseKeys);
      report.findingsFixed += result.fixed;
      for (const m of result.manual) report.manual.push({ file: display(path), line: m.line, reason: m.reason, transform: m.transform });
      for (const [name, n] of result.fixedBy) fixedBy.set(name, (fixedBy.get(name) ?? 0) + n);
    }
    options.onProgress?.(linted.length, linted.length, '');
    // Only a run over part of the tree has keys elsewhere to look for.
    const partial = keysIn.size > 0 && paths.some((p) => resolve(cwd, p) !== cwd);
    const elsewhere = partial ? await keysElsewhere(cwd, new Set(files)) : undefined;
    report.leaseKeys = makeKeysUnique(keysIn, state, display, elsewhere);

    // Project steps (for example wiring setLeaseClient once) see every file's current text.
    runProjectSteps(this, this.transforms, { ...state, fixedBy }, report, {
      cwd,
      display,
      context: this.contextFor(options.service ?? this.options.service ?? packageInfoFor(cwd, cwd).service),
    });

    for (const [path, after] of state.current) {
      const before = state.originals.get(path);
      if (before === undefined || before === after) continue;
      report.changes.push({ file: display(path), path, before, after, fixed: fixedIn.get(path) ?? 0 });
    }
    report.filesChanged = report.changes.length;
    if (writing) writeChanges(report, state.created, writableRoots(cwd, paths));
    return report;
  }
}

/** The programmatic API: `runCodemod({ paths: ['src'], dryRun: true })`. */
export async function runCodemod(options: CodemodOptions = {}): Promise<CodemodReport> {
  const transforms = findTransforms(options.transforms);
  const engine = new Engine(transforms, { service: options.service, settings: options.settings, ttlMs: options.ttlMs });
  return engine.run(options);
}
