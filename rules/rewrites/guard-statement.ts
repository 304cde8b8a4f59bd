// The guard statement the `no-unguarded-schedule` suggestion and the `guard-schedules` codemod
// both insert, built from the rule's facts so the two can never produce different text.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SchedulePeriod } from '../../analysis/scheduled-work/scheduled-work.js';
import type { FunctionLike } from '../../analysis/scheduled-work/work-function.js';

export type { SchedulePeriod };

export interface GuardStatementOptions {
  /** How the guard is called in this file: `claimPeriod`, an alias, or `rg.claimPeriod`. */
  callee?: string;
  /** Job name when the facts have none (the codemod uses file and line). */
  fallbackJobName?: string;
  /** `return` in a function, `continue` in a `for await` loop body. */
  exit?: 'return' | 'continue';
}

/** A single-quoted JavaScript string literal. */
export function quote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}

/** `<service>:<job>`. */
export function leaseKey(service: string, job: string): string {
  return `${service}:${job}`;
}

/** The second argument of `claimPeriod`: the interval as written, or `{ cron, tz }`. */
export function periodArgumentText(period: SchedulePeriod): string | undefined {
  if (!period) return undefined;
  if (period.kind === 'interval') return period.text;
  const cron = period.kind === 'cron' ? quote(period.expression) : period.text;
  return period.tzText === undefined ? `{ cron: ${cron} }` : `{ cron: ${cron}, tz: ${period.tzText} }`;
}

/**
 * `if (!(await claimPeriod('svc:job', PERIOD))) return;` — or undefined when the period or the
 * job name is unknown (then a human has to pick them).
 */
export function guardStatementText(
  facts: { jobName: string | undefined; period: SchedulePeriod },
  service: string,
  options: GuardStatementOptions = {},
): string | undefined {
  const period = periodArgumentText(facts.period);
  const job = facts.jobName ?? options.fallbackJobName;
  if (period === undefined || job === undefined) return undefined;
  const callee = options.callee ?? 'claimPeriod';
  return `if (!(await ${callee}(${quote(leaseKey(service, job))}, ${period}))) ${options.exit ?? 'return'};`;
}

/**
 * A self-rescheduling `setTimeout` loop's `setTimeout(tick, ms);` when it is a top-level
 * statement of the work function's body — the only shape where the guard can safely exit: the
 * losing replica must still reschedule, or its loop stops for good.
 */
export function rescheduleStatementOf(fn: FunctionLike, schedulerNode: TSESTree.Node): TSESTree.ExpressionStatement | undefined {
  if (fn.body.type !== 'BlockStatement') return undefined;
  return fn.body.body.find((s): s is TSESTree.ExpressionStatement => s.type === 'ExpressionStatement' && s.expression === schedulerNode);
}

/** `if (!(await claimPeriod(…))) { setTimeout(tick, ms); return; }` from the plain guard. */
export function guardWithReschedule(guard: string, reschedule: { range: [number, number] }, text: string): string {
  const source = text.slice(reschedule.range[0], reschedule.range[1]);
  return guard.replace(/ return;$/, ` { ${source.endsWith(';') ? source : `${source};`} return; }`);
}

/**
 * `async function tick() { try { work } finally { setTimeout(tick, ms); } }`: the `try` block, when
 * the reschedule is a plain statement of a top-level `finally` — a guard that returns from inside
 * the `try` still reaches the `finally`, so a losing replica keeps its loop.
 */
export function tryBlockBeforeFinallyReschedule(fn: FunctionLike, schedulerNode: TSESTree.Node): TSESTree.BlockStatement | undefined {
  if (fn.body.type !== 'BlockStatement') return undefined;
  for (const statement of fn.body.body) {
    if (statement.type !== 'TryStatement' || !statement.finalizer) continue;
    if (statement.finalizer.body.some((s) => s.type === 'ExpressionStatement' && s.expression === schedulerNode)) return statement.block;
  }
  return undefined;
}
