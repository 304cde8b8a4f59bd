// The project-level steps that run once after every file is transformed (wiring setLeaseClient,
// scaffolding the migrate entrypoint, the `migrate` script): they see every file's current text
// and answer with edits, whole files and follow-ups, which land in the run's state here.
import { existsSync, readFileSync } from 'node:fs';
import type { Finding } from '../../rules/utils/create-rule.js';
import { runtimeImportEdits } from '../../rules/rewrites/runtime-import.js';
import { errorMessage, type CodemodReport } from './report.js';
import { applyEdits } from './text-edits.js';
import type { AnyTransform, ProjectView, RuleWithFacts, SourceFileInfo, TransformContext } from './transform.js';

/** What a step needs of the engine: parse a text as a file, run one rule over it. */
export interface StepHost {
  parse(path: string, text: string): SourceFileInfo;
  detectRule<Facts>(path: string, text: string, rule: RuleWithFacts<Facts>): Array<Finding<string, Facts>>;
}

/** The run's files as the steps change them. */
export interface RunState {
  /** Text before the run, by absolute path ('' for a file the run creates). */
  originals: Map<string, string>;
  /** Current text, by absolute path. */
  current: Map<string, string>;
  /** Files the run creates. */
  created: Set<string>;
  /** Findings fixed per transform. */
  fixedBy: ReadonlyMap<string, number>;
}

export function runProjectSteps(
  host: StepHost,
  transforms: readonly AnyTransform[],
  state: RunState,
  report: CodemodReport,
  run: { cwd: string; display: (path: string) => string; context: TransformContext },
): void {
  const { current, originals, created } = state;
  for (const transform of transforms) {
    if (!transform.project) continue;
    const view: ProjectView = {
      files: current,
      originals,
      parse: (path) => {
        const text = current.get(path);
        if (text === undefined) return undefined;
        try {
          return host.parse(path, text);
        } catch {
          return undefined;
        }
      },
      detect: (path, text, rule) => {
        try {
          return host.detectRule(path, text, rule);
        } catch {
          return [];
        }
      },
      relative: run.display,
      cwd: run.cwd,
      fixed: state.fixedBy.get(transform.name) ?? 0,
    };
    const output = transform.project(view, run.context);
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
      const next = applyEdits(file.text, [...change.edits, ...runtimeImportEdits(file.text, file.ast, file.style, change.imports)]);
      try {
        host.parse(change.path, next);
        current.set(change.path, next);
      } catch (error) {
        report.errors.push({
          file: run.display(change.path),
          message: `the ${transform.name} project step produced code that does not parse: ${errorMessage(error)}`,
        });
      }
    }
    for (const m of output.manual) {
      const file = run.display(m.path);
      // Two transforms share a step (the setLeaseClient wiring): its follow-up is listed once.
      if (report.manual.some((other) => other.file === file && other.line === m.line && other.reason === m.reason)) continue;
      report.manual.push({ file, line: m.line, reason: m.reason, transform: transform.name });
    }
  }
}
