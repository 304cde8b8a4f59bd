// A one-shot timer that runs a schedule's work at once, whatever its delay: `setTimeout(sendDigests, 2000)`
// beside `cron.schedule('0 8 * * *', sendDigests)`, or a start-up timer that fires a cron job now when its
// last run looks overdue (`setTimeout(async () => { …; if (late) this.digestJob.fireOnTick(); }, 1000)`).
// Every replica starts, so every replica runs that work once more: it is that schedule's work, judged as
// that schedule is, and reported at the timer. A start-up timer that only connects, warms a cache or
// starts the job (`job.start()`) runs none of its work; a timer inside the work itself (a retry) is a
// continuation of one run. A bare timer's work run seconds after start (`setTimeout(tick, 2000)` beside
// `setInterval(tick, ms)`) is a settling tick, not a run of a declared job: only a declared job's work counts.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { LATE_TICK_HANDLERS } from '../../src/knowledge/late-tick-handlers.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import type { ScheduledWork, SchedulePeriod } from '../../analysis/scheduled-work/scheduled-work.js';
import { isFunctionLike, resolveWorkFunction, type FunctionLike } from '../../analysis/scheduled-work/work-function.js';
import { descendants } from '../../analysis/sql/descendants.js';

/**
 * How a timer repeats (the rule's `timerLoop`): the call that reschedules it, whether it is a one-shot run after each
 * start, the period its guard takes; and, for a one-shot run of a schedule's work, that schedule (judged in its stead).
 */
export interface TimerLoop {
  rescheduleCall: TSESTree.Node | undefined;
  delayedStart: boolean;
  period: SchedulePeriod | undefined;
  runs?: ScheduledWork;
}

/** The calls `fn` makes itself (not those of functions nested in it). */
function* ownCalls(sourceCode: SourceCode, fn: FunctionLike): Generator<TSESTree.CallExpression> {
  for (const node of descendants(fn.body, sourceCode.visitorKeys, (child) => isFunctionLike(child)))
    if (node.type === 'CallExpression') yield node;
}

const isInside = (inner: TSESTree.Node, outer: TSESTree.Node): boolean =>
  inner.range[0] >= outer.range[0] && inner.range[1] <= outer.range[1];

/** `job.fireOnTick()`: the tick of a job of a scheduler that has one (cron's `CronJob`), run now. */
function firesTick(call: TSESTree.CallExpression, schedule: ScheduledWork): boolean {
  const callee = call.callee;
  if (callee.type !== 'MemberExpression' || call.arguments.length > 0) return false;
  const tick = LATE_TICK_HANDLERS[schedule.entry.id.replace(/\.from$/, '')]?.properties ?? [];
  return tick.includes(memberPropertyName(callee) ?? '');
}

/**
 * The schedule of this file whose work a one-shot timer runs: its callback is that schedule's work function, or calls
 * it, or fires the tick of the file's one job that has a tick; undefined for any other timer.
 */
function scheduleRunBy(sourceCode: SourceCode, timer: ScheduledWork, works: readonly ScheduledWork[]): ScheduledWork | undefined {
  const fn = timer.resolved?.fn;
  if (!timer.entry.selfRescheduling || !fn || timer.schedulerNode.type !== 'CallExpression') return undefined;
  const schedules = works.filter(
    (w) => w !== timer && !w.entry.bareTimer && !w.entry.oneShot && !(w.resolved?.fn && isInside(timer.schedulerNode, w.resolved.fn)),
  );
  const same = schedules.find((w) => w.resolved?.fn === fn);
  if (same) return same;
  const ticking = schedules.filter((w) => LATE_TICK_HANDLERS[w.entry.id.replace(/\.from$/, '')]);
  for (const call of ownCalls(sourceCode, fn)) {
    const called = schedules.find((w) => w.resolved?.fn && resolveWorkFunction(sourceCode, call.callee)?.fn === w.resolved.fn);
    if (called) return called;
    if (ticking.length === 1 && firesTick(call, ticking[0]!)) return ticking[0];
  }
  return undefined;
}

/** A one-shot timer running a schedule's work: a run after each start, with that schedule's period, judged as that schedule. */
export function scheduleRunAtStart(sourceCode: SourceCode, timer: ScheduledWork, works: readonly ScheduledWork[]): TimerLoop | undefined {
  const runs = scheduleRunBy(sourceCode, timer, works);
  return runs && { rescheduleCall: undefined, delayedStart: true, period: runs.period, runs };
}
