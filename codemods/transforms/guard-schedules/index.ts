// `guard-schedules`: for each finding of `no-unguarded-schedule`, make the work function begin with
// `if (!(await claimPeriod('<service>:<job>', <period>))) return;` (made async where needed), so
// the first replica to ask in a period runs it and every other ask in that period is skipped —
// other pods, restarts and the startup run of the same function alike.
import type { TSESTree } from '@typescript-eslint/utils';
import noUnguardedSchedule, { type UnguardedScheduleFacts } from '../../../rules/no-unguarded-schedule.js';
import { guardStatementText, guardWithReschedule, leaseKey, quote } from '../../../rules/rewrites/guard-statement.js';
import { guardInsertionEdits } from '../../../rules/no-unguarded-schedule/guard-insertion.js';
import { runtimeImport } from '../../../rules/rewrites/runtime-import.js';
import { mentionsSchedule, POLL_LOOP_HEAD_WORDS } from '../../../rules/no-unguarded-schedule/schedule-mentions.js';
import { PERIOD_GUARD } from '../../../src/knowledge/guards.js';
import { SCHEDULER_MODULES, SCHEDULERS } from '../../../src/knowledge/schedulers.js';
import { quoted, type FileStyle } from '../../engine/file-style.js';
import { leaseClientWiring } from '../../engine/lease-client-wiring.js';
import type { ManualNote, TextEdit, Transform, TransformOutput } from '../../engine/transform.js';
import { importedWorkArgument, wrapEdit } from './wrap-imported.js';

/**
 * The guard statement from the rule's own helper (so suggestion and codemod agree), with its
 * string literals in the file's quote style.
 */
export function guardStatement(facts: UnguardedScheduleFacts, service: string, callee: string, style: FileStyle): string | undefined {
  // No line number in a key (it would change when code moves): the file's name; the engine
  // qualifies keys that repeat across the run.
  const fallbackJobName = facts.fallbackJobName.replace(/-\d+$/, '');
  const statement = guardStatementText(facts, service, { callee, fallbackJobName, exit: facts.exit });
  if (statement === undefined || style.quote === "'") return statement;
  const values = [leaseKey(service, facts.jobName ?? fallbackJobName)];
  if (facts.period?.kind === 'cron') values.push(facts.period.expression);
  return values.reduce((out, value) => out.replace(quote(value), () => quoted(value, '"')), statement);
}

export const SCHEDULER_PREFILTER: readonly string[] = [
  ...SCHEDULER_MODULES,
  // Globals (`setInterval`) have no module to look for; their own names are the words.
  ...new Set(SCHEDULERS.filter((s) => s.modules.includes(null)).map((s) => s.path[0]!)),
  // A poll loop may pause with the project's own `delay`: no timer or module is named, only the loop.
  ...POLL_LOOP_HEAD_WORDS,
];

export const guardSchedules: Transform<UnguardedScheduleFacts> = {
  name: 'guard-schedules',
  rule: noUnguardedSchedule,
  description:
    "Make each unguarded scheduled work function begin with `if (!(await claimPeriod('<service>:<job>', <period>))) return;` and wire setLeaseClient once.",
  prefilter: SCHEDULER_PREFILTER,
  mayMatch: mentionsSchedule,

  apply(file, findings, context): TransformOutput {
    const edits: TextEdit[] = [];
    const manual: ManualNote[] = [];
    const guarded = new Set<TSESTree.Node>();
    const callee = runtimeImport(file.sourceCode, file.path, PERIOD_GUARD).callee;
    for (const finding of findings) {
      const facts = finding.facts;
      const offset = finding.node.range[0];
      // The rule decided whether a guard can go in (and what a losing replica must still do).
      const imported = facts.manual ? importedWorkArgument(facts, file) : undefined;
      const importedGuard = imported && guardStatement(facts, context.service, callee, file.style);
      if (imported && importedGuard) {
        edits.push(wrapEdit(imported, importedGuard, file));
        continue;
      }
      if (facts.manual) {
        manual.push({ offset, reason: facts.manual });
        continue;
      }
      const target = facts.workFunction ?? facts.loopBody;
      if (!target || guarded.has(target)) continue;
      const guard = guardStatement(facts, context.service, callee, file.style);
      if (!guard) {
        manual.push({ offset, reason: 'the period could not be read from the schedule; add the claimPeriod guard with the right period' });
        continue;
      }
      // A losing replica must still reschedule, or its loop stops: `{ setTimeout(tick, ms); return; }`.
      const statement = facts.reschedule ? guardWithReschedule(guard, facts.reschedule, file.text) : guard;
      const insertion = guardInsertionEdits(facts, statement, file.text, file.style);
      if (!insertion) continue;
      edits.push(...insertion.map((edit) => ({ start: edit.range[0], end: edit.range[1], text: edit.text })));
      guarded.add(target);
    }
    // An alias or namespace import (`rg.claimPeriod`) is already there; otherwise import the name.
    return { edits, imports: callee === PERIOD_GUARD ? [PERIOD_GUARD] : [], manual };
  },

  project: leaseClientWiring,
};
