// The contract between the engine and one transform. A transform never detects anything itself:
// it receives the findings of the rule it names (the same `detect` the ESLint rule runs) and
// answers with text edits at those ranges, the `replica-guard` names the edits need imported,
// and the findings it could not rewrite (each becomes a `// replica-guard: manual — <why>`
// marker and a follow-up entry).
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { Finding, ReplicaGuardRule } from '../../rules/utils/create-rule.js';
import type { FileStyle } from './file-style.js';

/** Replace `text[start, end)` with `text`; `start === end` is an insertion. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
  /**
   * This edit rewrites text inside a string or template on purpose (SQL). Any other edit that
   * reaches into a literal fails the file: the engine keeps what a program sends byte-identical.
   */
  literal?: true;
}

/** A finding the transform cannot rewrite safely; `offset` is where the marker goes. */
export interface ManualNote {
  offset: number;
  reason: string;
}

export interface TransformOutput {
  edits: TextEdit[];
  /** Names to import (or require) from `replica-guard` when any edit is applied. */
  imports: string[];
  manual: ManualNote[];
}

/** One parsed source file as the transform sees it. */
export interface SourceFileInfo {
  /** Absolute path. */
  path: string;
  text: string;
  ast: TSESTree.Program;
  sourceCode: SourceCode;
  style: FileStyle;
}

export interface TransformContext {
  /** `<service>` in lease keys: `--service`, else the nearest package.json name without scope. */
  service: string;
  /** Lease ttl in ms for transforms that write `runExclusive` (`--ttl`); each documents its default. */
  ttlMs?: number;
}

/** What a project-level step (run once after every file) wants changed in one file. */
export interface ProjectFileChange {
  path: string;
  edits: TextEdit[];
  imports: string[];
}

export interface ProjectOutput {
  changes: ProjectFileChange[];
  /** Follow-ups that are not tied to a finding (for example "call setLeaseClient at startup"). */
  manual: Array<{ path: string; line: number; reason: string }>;
  /** Whole files to write: new files (never written over an existing one) or non-source files such as package.json. */
  files?: Array<{ path: string; text: string; create?: boolean }>;
}

/** Read-only view of the whole run, handed to `project` steps after all files are transformed. */
export interface ProjectView {
  /** Every scanned file's current text (after this run's edits), by absolute path. */
  files: ReadonlyMap<string, string>;
  /** Every scanned file's text before the run, by absolute path ('' for a file the run creates). */
  originals: ReadonlyMap<string, string>;
  /** Parses a file's current text; `undefined` when it does not parse. */
  parse(path: string): SourceFileInfo | undefined;
  /** Runs one rule's detection over a file's text (for project steps that need their own facts). */
  detect<Facts>(path: string, text: string, rule: RuleWithFacts<Facts>): Array<Finding<string, Facts>>;
  /** The run's working directory (absolute). */
  cwd: string;
  /** A path as the report shows it (relative to the run's cwd). */
  relative(path: string): string;
  /** Findings this transform fixed in this run. */
  fixed: number;
}

export interface Transform<Facts = unknown> {
  /** Kebab-case name used by `--transform` and `docs/codemods/<name>.md`. */
  name: string;
  /** The rule whose findings this transform rewrites. */
  rule: RuleWithFacts<Facts>;
  /** One line for `--help` and the docs. */
  description: string;
  /**
   * Words of which at least one must occur in a file's text for it to be parsed at all.
   * Derived from the `src/knowledge/` catalogue the rule reads, never a second list.
   */
  prefilter: readonly string[];
  /**
   * A stricter text test run after `prefilter` matched — the rule's own pre-check, when it has
   * one, so a file the rule would skip is never parsed.
   */
  mayMatch?: (text: string) => boolean;
  /**
   * Its edits may rewrite text inside strings and templates (SQL); set in the registry. Without
   * it an edit that reaches into a literal fails the file.
   */
  rewritesLiterals?: boolean;
  apply(file: SourceFileInfo, findings: ReadonlyArray<Finding<string, Facts>>, context: TransformContext): TransformOutput;
  /** Optional step after every file (for example wiring `setLeaseClient` once per project). */
  project?(view: ProjectView, context: TransformContext): ProjectOutput;
}

/**
 * A rule seen from the codemod: whatever its messages and options, the facts its findings carry.
 * (Options are contravariant in `detect`; the engine hands each rule the options it was configured with.)
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RuleWithFacts<Facts = unknown> = ReplicaGuardRule<string, any, Facts>;

/**
 * A transform for `rule`: `apply` receives that rule's findings with their facts typed, no cast —
 * `defineTransform({ rule: noUnguardedSchedule, apply(file, findings) { findings[0]?.facts.period } })`.
 */
export function defineTransform<Facts>(transform: Transform<Facts>): Transform<Facts> {
  return transform;
}

// The registry holds transforms of different fact types; this is the erased element type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTransform = Transform<any>;
