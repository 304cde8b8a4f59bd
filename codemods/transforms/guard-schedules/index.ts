// `guard-schedules`: for each finding of `no-unguarded-schedule`, make the work function begin with
// `if (!(await claimPeriod('<service>:<job>', <period>))) return;` (made async where needed), so
// the first replica to ask in a period runs it and every other ask in that period is skipped —
// other pods, restarts and the startup run of the same function alike.
import type { TSESTree } from '@typescript-eslint/utils';
import noUnguardedSchedule, { type UnguardedScheduleFacts } from '../../../rules/no-unguarded-schedule.js';
import {
  guardStatementText,
  guardWithReschedule,
  leaseKey,
  quote,
  rescheduleStatementOf,
} from '../../../rules/rewrites/guard-statement.js';
import { runtimeImport } from '../../../rules/rewrites/runtime-import.js';
import { mentionsSchedule } from '../../../rules/no-unguarded-schedule/schedule-mentions.js';
import { PERIOD_GUARD } from '../../../src/knowledge/guards.js';
import { SCHEDULER_MODULES, SCHEDULERS } from '../../../src/knowledge/schedulers.js';
import { indentationAt, quoted, type FileStyle } from '../../engine/file-style.js';
import { leaseClientWiring } from '../../engine/lease-client-wiring.js';
import { lineAt } from '../../engine/text-edits.js';
import type { ManualNote, SourceFileInfo, TextEdit, Transform, TransformOutput } from '../../engine/transform.js';

type WorkFunction = NonNullable<UnguardedScheduleFacts['workFunction']>;

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

function isPromiseType(node: TSESTree.TypeNode): boolean {
  return node.type === 'TSTypeReference' && node.typeName.type === 'Identifier' && node.typeName.name === 'Promise';
}

/** The method/property definition a function expression is the value of, if it is one. */
function methodOf(fn: WorkFunction): TSESTree.MethodDefinition | TSESTree.Property | TSESTree.TSAbstractMethodDefinition | undefined {
  const parent = fn.parent;
  if (!parent || fn.type !== 'FunctionExpression') return undefined;
  if (parent.type === 'MethodDefinition' || parent.type === 'TSAbstractMethodDefinition') return parent;
  if (parent.type === 'Property' && (parent.method || parent.kind !== 'init')) return parent;
  return undefined;
}

/** Why this work function cannot take a leading guard, or undefined when it can. */
function unguardableReason(fn: WorkFunction): string | undefined {
  if (fn.generator) return 'the work function is a generator; guard its caller by hand';
  const method = methodOf(fn);
  if (method && (method.kind === 'get' || method.kind === 'set' || method.kind === 'constructor')) {
    return `a ${method.kind === 'constructor' ? 'constructor' : `${method.kind}ter`} cannot be made async; move the work into a method and guard that`;
  }
  if (fn.body === null || fn.body === undefined) return 'the work function has no body here (an overload or declaration)';
  return undefined;
}

/** `async ` where the function needs it, and `Promise<T>` around an explicit return type. */
function asyncEdits(fn: WorkFunction, file: SourceFileInfo): TextEdit[] {
  if (fn.async) return [];
  const edits: TextEdit[] = [];
  const method = methodOf(fn);
  if (method) {
    const keyStart = method.computed
      ? (file.sourceCode.getTokenBefore(method.key as never)?.range[0] ?? method.key.range[0])
      : method.key.range[0];
    edits.push({ start: keyStart, end: keyStart, text: 'async ' });
  } else {
    edits.push({ start: fn.range[0], end: fn.range[0], text: 'async ' });
  }
  const returnType = fn.returnType?.typeAnnotation;
  if (returnType && !isPromiseType(returnType)) {
    const inner = file.text.slice(returnType.range[0], returnType.range[1]);
    edits.push({ start: returnType.range[0], end: returnType.range[1], text: `Promise<${inner}>` });
  }
  return edits;
}

/** The guard as the first statement of the body (expression bodies become blocks). */
function bodyEdits(
  fn: WorkFunction | undefined,
  block: TSESTree.BlockStatement | undefined,
  guard: string,
  file: SourceFileInfo,
): TextEdit[] {
  const { text, style } = file;
  const body = block ?? fn!.body;
  if (body.type !== 'BlockStatement') {
    fn = fn!;
    // `() => sweep()` → `() => { if (…) return; return sweep(); }`: the value is still returned.
    const arrow = file.sourceCode.getTokenBefore(body as never, { filter: (t) => t.value === '=>', includeComments: false });
    const from = arrow ? arrow.range[1] : body.range[0];
    const expression = text.slice(from, fn.range[1]).trim();
    return [{ start: from, end: fn.range[1], text: ` { ${guard} return ${expression}${style.semicolons ? ';' : ''} }` }];
  }
  const open = body.range[0];
  const first = body.body[0];
  if (!first) return [{ start: open + 1, end: open + 1, text: ` ${guard} ` }];
  if (lineAt(text, first.range[0]) === lineAt(text, open)) return [{ start: first.range[0], end: first.range[0], text: `${guard} ` }];
  // At the end of the `{` line, so a comment after `{` stays where it is.
  let lineEnd = text.indexOf('\n', open);
  if (lineEnd === -1) lineEnd = text.length;
  if (text[lineEnd - 1] === '\r') lineEnd -= 1;
  const statement = style.semicolons ? guard : guard.replace(/;$/, '');
  return [{ start: lineEnd, end: lineEnd, text: `${style.eol}${indentationAt(text, first.range[0])}${statement}` }];
}

export const SCHEDULER_PREFILTER: readonly string[] = [
  ...SCHEDULER_MODULES,
  // Globals (`setInterval`) have no module to look for; their own names are the words.
  ...new Set(SCHEDULERS.filter((s) => s.modules.includes(null)).map((s) => s.path[0]!)),
];

export const guardSchedules: Transform<UnguardedScheduleFacts> = {
  name: 'guard-schedules',
  rule: noUnguardedSchedule as unknown as Transform<UnguardedScheduleFacts>['rule'],
  description:
    "Make each unguarded scheduled work function begin with `if (!(await claimPeriod('<service>:<job>', <period>))) return;` and wire setLeaseClient once.",
  prefilter: SCHEDULER_PREFILTER,
  mayMatch: mentionsSchedule,

  apply(file, findings, context): TransformOutput {
    const edits: TextEdit[] = [];
    const manual: ManualNote[] = [];
    const guarded = new Set<TSESTree.Node>();
    const callee = runtimeImport(file.sourceCode as never, file.path, PERIOD_GUARD).callee;
    for (const finding of findings) {
      const facts = finding.facts;
      const offset = finding.node.range[0];
      const fn = facts.workFunction;
      const loop = fn ? undefined : facts.loopBody;
      if (loop) {
        if (guarded.has(loop)) continue;
        const guard = guardStatement(facts, context.service, callee, file.style);
        if (!guard) {
          manual.push({
            offset,
            reason: 'the period could not be read from the schedule; add the claimPeriod guard with the right period',
          });
          continue;
        }
        edits.push(...bodyEdits(undefined, loop, guard, file));
        guarded.add(loop);
        continue;
      }
      if (!fn) {
        manual.push({
          offset,
          reason: 'the work function is not defined in this file; make it begin with a claimPeriod guard where it is defined',
        });
        continue;
      }
      if (guarded.has(fn)) continue;
      const scheduler = SCHEDULERS.find((s) => s.id === facts.scheduler);
      const reschedule = scheduler?.selfRescheduling ? rescheduleStatementOf(fn, facts.schedulerNode) : undefined;
      if (scheduler?.selfRescheduling && !reschedule) {
        manual.push({
          offset,
          reason:
            'a self-rescheduling setTimeout whose reschedule is not a plain statement of the function body: an early return would stop the loop; guard the work by hand',
        });
        continue;
      }
      if (!facts.period) {
        manual.push({ offset, reason: 'the period could not be read from the schedule; add the claimPeriod guard with the right period' });
        continue;
      }
      const why = unguardableReason(fn);
      if (why) {
        manual.push({ offset, reason: why });
        continue;
      }
      const guard = guardStatement(facts, context.service, callee, file.style);
      if (!guard) {
        manual.push({ offset, reason: 'the period could not be read from the schedule; add the claimPeriod guard with the right period' });
        continue;
      }
      // A losing replica must still reschedule, or its loop stops: `{ setTimeout(tick, ms); return; }`.
      const statement = reschedule ? guardWithReschedule(guard, reschedule, file.text) : guard;
      edits.push(...asyncEdits(fn, file), ...bodyEdits(fn, undefined, statement, file));
      guarded.add(fn);
    }
    // An alias or namespace import (`rg.claimPeriod`) is already there; otherwise import the name.
    return { edits, imports: callee === PERIOD_GUARD ? [PERIOD_GUARD] : [], manual };
  },

  project: leaseClientWiring,
};
