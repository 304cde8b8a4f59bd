// no-unguarded-schedule: a timer, cron job or scheduled method whose work runs on every replica.
// The catalogue (src/knowledge/schedulers.ts) says where each scheduler keeps its work and its
// schedule; this file turns a matched call into one model — work function, period, job name —
// and decides whether that work is guarded.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { basename, extname } from 'node:path';
import { PERIOD_GUARD } from '../src/knowledge/guards.js';
import { isLintedTestCode } from '../analysis/source/test-code.js';
import { isDevelopmentFilePath, isHandRunScriptPath } from '../src/knowledge/file-conventions.js';
import { projectPath } from '../analysis/source/project-path.js';
import { isMigrationStepFile } from './migrations/exempt-file.js';
import { createRule } from './utils/create-rule.js';
import { periodNameHiddenFrom } from './no-unguarded-schedule/period-hidden-from-work.js';
import { mayScheduleIn, mentionsSchedule } from './no-unguarded-schedule/schedule-mentions.js';
import { isServedScript, usesBrowserGlobals } from './no-unguarded-schedule/browser-code.js';
import { runsInDesktopApp } from './no-unguarded-schedule/desktop-app.js';
import { isVendoredScheduler } from './no-unguarded-schedule/vendored-scheduler.js';
import { isInEffectHookCallback } from './no-unguarded-schedule/effect-hook-callback.js';
import { isInClientMessageHandler } from './no-unguarded-schedule/client-message-handler.js';
import { queueHandedWorks } from './no-unguarded-schedule/handed-callback.js';
import { importedHelperWorks } from './no-unguarded-schedule/imported-helper.js';
import { constructedHelperWorks } from './no-unguarded-schedule/constructed-helper.js';
import { wrappedDecoratorWorks } from './no-unguarded-schedule/wrapped-decorator.js';
import { runsInstanceCallback } from './no-unguarded-schedule/instance-callback.js';
import { isInPromiseExecutor } from './no-unguarded-schedule/promise-executor.js';
import { restartsWhatItStarted } from './no-unguarded-schedule/timer-lifetime.js';
import { continuesOneRun } from './no-unguarded-schedule/continuation.js';
import { guardInsertionEdits, unguardableReason } from './no-unguarded-schedule/guard-insertion.js';
import { instanceBindingReadBy } from './no-unguarded-schedule/instance-binding.js';
import { readsGuardedProperty } from './no-unguarded-schedule/guarded-property.js';
import type { EffectsOptions } from '../analysis/scheduled-work/external-effects.js';
import type { GuardLookup } from '../analysis/scheduled-work/is-guarded.js';
import { moduleWorkKnowledge } from '../analysis/scheduled-work/effects-options.js';
import { effectsOfWorkElsewhere, followCallsFrom, rescheduleThroughHelper } from '../analysis/scheduled-work/cross-file-work.js';
import { clientTimerWorks } from '../analysis/scheduled-work/client-timers.js';
import { frameworkCronWorks } from '../analysis/scheduled-work/framework-crons.js';
import { followLockHelpersFrom } from '../analysis/scheduled-work/in-process-lock-helper.js';
import { followClaimAnswersFrom } from '../analysis/scheduled-work/claim-answer.js';
import { followRowLocksFrom } from '../analysis/scheduled-work/row-lock-helper.js';
import { scheduledWorks, type ScheduledWork, type SchedulePeriod } from '../analysis/scheduled-work/scheduled-work.js';
import {
  guardStatementText,
  guardWithReschedule,
  rescheduleStatementOf,
  tryBlockBeforeFinallyReschedule,
} from './rewrites/guard-statement.js';
import { reschedulesThroughCaller } from '../analysis/scheduled-work/schedule-gates.js';
import { scheduleVerdict } from './no-unguarded-schedule/verdict.js';
import { scheduledWorkStaysOnHost } from '../analysis/scheduled-work/host-local-work.js';
import { armedPerStoredRow } from '../analysis/scheduled-work/per-row-timers.js';
import { isDelayedStartRun } from './no-unguarded-schedule/delayed-boot-run.js';
import { startedOnlyUnderGuard } from './no-unguarded-schedule/started-under-guard.js';
import { neverStarted } from './no-unguarded-schedule/never-started.js';
import { waitsUntilReady } from './no-unguarded-schedule/wait-until-ready.js';
import { scheduleRunAtStart, type TimerLoop } from './no-unguarded-schedule/schedule-run-at-start.js';
import { withOwnSchedules } from './no-unguarded-schedule/own-schedules.js';
import { jobName as toJobName } from './rewrites/job-name.js';
import { runtimeImport } from './rewrites/runtime-import.js';
import { serviceName } from './rewrites/service-name.js';
import { readSettings } from '../analysis/settings.js';
import { callIntent } from '../analysis/scheduled-work/work-intent.js';

const NO_TELEMETRY: ReadonlySet<string> = new Set();
import type { FunctionLike } from '../analysis/scheduled-work/work-function.js';

/** What the `guard-schedules` codemod needs to rewrite one finding. */
export interface UnguardedScheduleFacts {
  /** Catalogue id, e.g. `setInterval`, `node-cron.schedule`, `nestjs.Cron`. */
  scheduler: string;
  /** The resolved work function; undefined when it is defined in another file (or is a `for await` body). */
  workFunction: FunctionLike | undefined;
  /** kebab-case job name from the function, method or variable name. */
  jobName: string | undefined;
  /** Interval as written, or the literal cron expression (with the time zone option as written). */
  period: SchedulePeriod;
  /** For `@Cron` / `@Interval` / `@Timeout`. */
  decorator?: TSESTree.Decorator;
  /** The scheduling call itself (`setInterval(…)`, `new CronJob(…)`, the decorator's call). */
  schedulerNode: TSESTree.CallExpression | TSESTree.NewExpression;
  /** For `for await (… of setInterval(ms))`: the loop body is the work; the guard exits with `continue`. */
  loopBody?: TSESTree.BlockStatement;
  /** The class member when the work is a method (`async` goes before its key). */
  member?: TSESTree.MethodDefinition | TSESTree.PropertyDefinition;
  /** How the inserted guard leaves the work: `return` from a function, `continue` in a loop. */
  exit: 'return' | 'continue';
  /** Job name to use when `jobName` is undefined: file name and line. */
  fallbackJobName: string;
  /** A self-rescheduling loop's `setTimeout(tick, ms);`: a losing replica runs it before it returns. */
  reschedule?: TSESTree.ExpressionStatement;
  /** For a loop that reschedules in `finally`: the `try` block the guard goes in. */
  guardBlock?: TSESTree.BlockStatement;
  /** Why no guard can be inserted here (no suggestion; the codemod leaves this as a manual follow-up). */
  manual?: string;
}

export type Options = [{ reportAll?: boolean }];

export type MessageIds = 'unguardedSchedule' | 'deploymentFlagGate' | 'addClaimPeriod';

/** The manual reason of a work function of another module: the codemod wraps the reference where it is handed over instead. */
export const WORK_NOT_DEFINED_HERE =
  'the work function is not defined in this file; make it begin with a claimPeriod guard where it is defined';

/** Why the codemod cannot put the guard in, or undefined when it can (the same decision gates the suggestion). */
function manualReason(
  sourceCode: Readonly<TSESLint.SourceCode>,
  work: ScheduledWork,
  fn: FunctionLike | undefined,
  reschedule: TSESTree.ExpressionStatement | TSESTree.BlockStatement | undefined,
  oneOff = false,
  delayedStart = false,
): string | undefined {
  const noPeriod = 'the period could not be read from the schedule; add the claimPeriod guard with the right period';
  if (delayedStart)
    return 'a one-shot run minutes after each start: guard the work where it is defined with the period of the schedule that repeats it (one claim covers both), or start it only on one replica';
  if (work.pollLoop)
    return "a poll loop: a guard's `continue` would skip the loop's pause and spin; wait before trying again (`if (!(await claimPeriod(key, ms))) { await delay(ms); continue; }`) or run the body inside runExclusive";
  if (work.entry.work.some((location) => location.kind === 'job-files'))
    return 'the scheduler runs job files, each in a worker of its own: begin each job file with a claimPeriod guard (its period), or start the scheduler only on the replica that holds a lease';
  // One schedule in the code, one job per factory call or loop pass: a fixed key would make them share one lease.
  // A function handed over by reference (`setInterval(prune, ms, guild)`) reads what the schedule hands it.
  const body = fn ?? work.loopBody ?? (work.decorator ? undefined : work.schedulerNode);
  const instance = body && instanceBindingReadBy(sourceCode, work.schedulerNode, body);
  if (instance)
    return `this schedule is set up once per \`${instance}\` (its work reads it): one fixed lease key would let only one of them run each period; guard it with a key that includes \`${instance}\``;
  if (work.loopBody) return work.period ? undefined : noPeriod;
  if (!fn) return WORK_NOT_DEFINED_HERE;
  if (oneOff && work.entry.selfRescheduling)
    return "a timer armed once per stored row: claim each row's effect (claimOnce with a key holding the row's id) or claim the row in the database";
  if (work.entry.selfRescheduling && !reschedule && !delayedStart)
    return 'a self-rescheduling setTimeout whose reschedule is not a plain statement of the function body or of its finally: an early return would stop the loop; guard the work by hand';
  if (!work.period) return noPeriod;
  const hidden = periodNameHiddenFrom(sourceCode, work.period, work.schedulerNode, fn);
  if (hidden !== undefined)
    return `the period reads \`${hidden}\`, which the work function does not see: begin the work with a claimPeriod guard whose period it can read`;
  return unguardableReason(fn);
}

/**
 * Where the squiggle goes: at the schedule. The work argument when it sits on the scheduler's
 * line (`setInterval(sweep, ms)`), else the scheduler itself (`new Cron(` of a call spread over lines).
 */
function reportedAt(work: ScheduledWork): { node: TSESTree.Node; loc?: TSESTree.SourceLocation } {
  const call = work.schedulerNode;
  if (work.decorator) return { node: work.decorator };
  // A poll loop: its head (`while (true)`), where the loop is decided.
  if (work.pollLoop) return { node: work.pollLoop, loc: { start: work.pollLoop.loc.start, end: work.pollLoop.body.loc.start } };
  const expression = work.expression;
  if (expression && expression.loc.start.line === call.loc.start.line) {
    // A function written in place: its head (`async () => {`), not the body's lines, which may hold other schedules.
    const head = (expression.type === 'ArrowFunctionExpression' || expression.type === 'FunctionExpression') && expression.body;
    return head && head.loc.end.line > head.loc.start.line
      ? { node: expression, loc: { start: expression.loc.start, end: head.loc.start } }
      : { node: expression };
  }
  return { node: call, loc: { start: call.loc.start, end: call.callee.loc.end } };
}

/** The linted file's guards and effects options: calls into the project's other modules are judged by the function they reach. */
function lintedFileKnowledge(context: Parameters<typeof followCallsFrom>[0]): { guards: GuardLookup; effectsOptions: EffectsOptions } {
  const module = moduleWorkKnowledge(context);
  const followed = {
    followCall: followCallsFrom(context),
    followLockHelper: followLockHelpersFrom(context),
    followClaimAnswer: followClaimAnswersFrom(context),
    followRowLock: followRowLocksFrom(context),
  };
  return { guards: module.guards, effectsOptions: { ...module.effects, ...followed } };
}

/** A wrapper the work is handed through that guards it: a replica guard, or a call named for its lock (`lockedTick(…)`). */
function isGuardingWrapper(wrapper: TSESTree.CallExpression, guards: GuardLookup): boolean {
  return guards(wrapper) !== undefined || callIntent(wrapper, NO_TELEMETRY) === 'coordinated';
}

/**
 * Browser timers run per tab, a test's or a `*.dev.ts` tool's in no replica, a scheduler library's copy runs its
 * users' jobs; a script in the repository's `scripts/` folder is run by hand (a simulator, an operator's watch).
 */
function runsInNoReplica(filename: string, cwd: string): boolean {
  if (isServedScript(filename) || isVendoredScheduler(filename) || isDevelopmentFilePath(filename)) return true;
  return isHandRunScriptPath(projectPath(filename, cwd) ?? '');
}

function isInside(inner: TSESTree.Node, outer: TSESTree.Node): boolean {
  return inner.range[0] >= outer.range[0] && inner.range[1] <= outer.range[1];
}

/**
 * A self-rescheduling timer's shape: the call that reschedules it, or a one-shot run minutes after
 * start-up, and the period the guard takes; undefined when it is no schedule to judge (a one-off, a
 * wait inside a promise, a respawn, a continuation of one run). Any other scheduler: itself.
 */
function timerLoop(
  context: Parameters<typeof rescheduleThroughHelper>[0],
  work: ScheduledWork,
  fn: FunctionLike | undefined,
): TimerLoop | undefined {
  const { entry, schedulerNode: node } = work;
  const sourceCode = context.sourceCode;
  if (!entry.selfRescheduling) return { rescheduleCall: node, delayedStart: false, period: work.period };
  // The reschedule: the timer inside its own work, through the function that set it, or through a project helper.
  const rescheduleCall =
    fn && !isInside(node, fn) && !reschedulesThroughCaller(sourceCode, node, fn) ? rescheduleThroughHelper(context, fn) : node;
  // A one-shot minutes after each start runs its work once per replica start, like a schedule.
  const delayedStart = fn !== undefined && !rescheduleCall && isDelayedStartRun(sourceCode, node as TSESTree.CallExpression);
  if (!fn || (!rescheduleCall && !armedPerStoredRow(sourceCode, node) && !delayedStart)) return undefined;
  // A `setTimeout` loop inside `new Promise(…)` is a wait that settles the promise.
  if (isInPromiseExecutor(fn)) return undefined;
  // A respawn or reconnect: rescheduled only when the process or connection the work started ends; a continuation of
  // one run: a retry from a `catch` or an error callback, or bounded by attempts (until it succeeds once); the next
  // page or item of one request or task; a step of a run that holds a lock.
  if (rescheduleCall === node && (restartsWhatItStarted(sourceCode, node, fn) || continuesOneRun(sourceCode, node, fn))) return undefined;
  // A wait until something is ready (re-armed only while a check fails), then the work once.
  if (waitsUntilReady(sourceCode, fn)) return undefined;
  // Through a helper, the loop's period is the helper's delay, not the first timer's.
  return { rescheduleCall, delayedStart, period: rescheduleCall === node || delayedStart ? work.period : undefined };
}

export const noUnguardedSchedule = createRule<MessageIds, Options, UnguardedScheduleFacts>({
  name: 'no-unguarded-schedule',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require scheduled work (timers, cron jobs, scheduled methods) to be guarded so that one replica runs it per period',
      recommended: true,
    },
    hasSuggestions: true,
    messages: {
      unguardedSchedule:
        '{{scheduler}} runs `{{work}}` on every replica. Begin it with `if (!(await {{guard}}(key, period))) return;` from replica-guard, or run it inside runExclusive/runOnce; mark it perReplica(fn) / @PerReplica() if every replica must run it.',
      deploymentFlagGate:
        '{{scheduler}} runs `{{work}}` wherever a deployment flag is set: every pod of one Deployment has the same environment, so the flag holds only while someone keeps exactly one pod configured differently. Begin it with `if (!(await {{guard}}(key, period))) return;` from replica-guard instead.',
      addClaimPeriod: 'Insert `{{statement}}` as the first statement.',
    },
    schema: [
      {
        type: 'object',
        additionalProperties: false,
        properties: {
          reportAll: {
            type: 'boolean',
            description:
              'Report every unguarded schedule, including work that only touches in-process state (a Map cleared, a counter reset, a log line).',
          },
        },
      },
    ],
  },
  defaultOptions: [{ reportAll: false }],
  detect(context, report) {
    const sourceCode = context.sourceCode;
    // Most files reference no timer and import no scheduler: skip them before any AST work, on the
    // names every schedule writes out (a timer's, a scheduler module's), then the path (a test, a
    // browser script, a scheduler library's copy: no replica runs it), then the scope analysis.
    if (!mentionsSchedule(sourceCode.text) || runsInNoReplica(context.filename, context.cwd) || isLintedTestCode(context)) return {};
    if (!mayScheduleIn(sourceCode)) return {};
    const reportAll = context.options[0]?.reportAll === true;
    return {
      Program() {
        if (usesBrowserGlobals(sourceCode)) return;
        const settings = readSettings(context.settings);
        // With the calls handing work to another module's helper that schedules it (imported-helper.ts), client-owned timers and
        // jobs handed to a framework's cron service (`strapi.cron.add`), methods under a project decorator wrapping a scheduler's.
        const works = withOwnSchedules(sourceCode, [
          ...scheduledWorks(context),
          ...clientTimerWorks(context),
          ...importedHelperWorks(context),
          ...constructedHelperWorks(context),
          ...frameworkCronWorks(context),
          ...wrappedDecoratorWorks(context),
        ]);
        if (works.length === 0) return;
        // A data-migration step runs once, in the migrator's one process; a desktop app's main process on one user's machine.
        if (isMigrationStepFile(context) || runsInDesktopApp(sourceCode, context.filename)) return;
        // The file's guards and effects options, built for the first work that needs a verdict.
        let own: { guards: GuardLookup; effectsOptions: EffectsOptions } | undefined;
        const knowledge = (): { guards: GuardLookup; effectsOptions: EffectsOptions } => (own ??= lintedFileKnowledge(context));
        // Asked only of work about to be reported: it may follow calls into other modules.
        const staysOnHost = (w: ScheduledWork) => scheduledWorkStaysOnHost(context, w, knowledge().effectsOptions.telemetry);
        const reported = new Set<TSESTree.Node>();
        const filename = context.filename;
        const fileStem = basename(filename, extname(filename)).replace(/\.(test|spec)$/, '');

        const wrappers = new Set<TSESTree.Node>();
        for (const work of works) {
          const { entry, schedulerNode: node, resolved } = work;
          // A timer wrapper running only its caller's callback: its calls in this file that hand it
          // work are the schedules (appended, so this loop judges them); a timer in a React effect.
          if (queueHandedWorks(sourceCode, work, works, wrappers) || isInEffectHookCallback(node)) continue;
          // A timer utility running the callback its instance was built with: the work is what its builder hands in.
          if (runsInstanceCallback(work.expression, resolved?.fn, sourceCode.visitorKeys)) continue;
          if (work.coordinatedByOption || isInClientMessageHandler(sourceCode, node)) continue;
          // perReplica(fn), any guard wrapping the work where it is handed over, or a wrapper named for its lock (`lockedTick(…)`).
          if (resolved?.wrapper && isGuardingWrapper(resolved.wrapper, knowledge().guards)) continue;
          const fn: FunctionLike | undefined = resolved?.fn;
          const loop = timerLoop(context, work, fn) ?? scheduleRunAtStart(sourceCode, work, works);
          if (!loop) continue;
          const { rescheduleCall, delayedStart, period, runs: judged = work } = loop;

          // A delayed start (or a one-shot running a schedule's work now) runs it once more beside the schedule: a finding of its own.
          const key = delayedStart ? node : (work.decorator ?? fn ?? work.loopBody ?? work.expression);
          if (!key || reported.has(key)) continue;
          const elsewhere = fn || work.loopBody ? undefined : effectsOfWorkElsewhere(context, work.expression);
          const verdict = scheduleVerdict({ work: judged, sourceCode, filename, ...knowledge(), reportAll, elsewhere, staysOnHost, works });
          if (verdict === 'quiet') continue;
          // `job.function` of job records whose every `function:` is a guarding wrapper's call (`runOnlyOnce(fn, name)`).
          if (!fn && readsGuardedProperty(sourceCode, work.expression, (call) => isGuardingWrapper(call, knowledge().guards))) continue;
          // Last, as it may read the package's other files: started only by callers under a guard, or by none in reach.
          if (startedOnlyUnderGuard(context, work) || neverStarted(context, work)) continue;
          reported.add(key);

          // A losing replica of a self-rescheduling loop must reschedule before it exits.
          const reschedule = entry.selfRescheduling && fn && rescheduleCall ? rescheduleStatementOf(fn, rescheduleCall) : undefined;
          const guardBlock =
            entry.selfRescheduling && fn && rescheduleCall && !reschedule ? tryBlockBeforeFinallyReschedule(fn, rescheduleCall) : undefined;
          const facts: UnguardedScheduleFacts = {
            scheduler: entry.id,
            workFunction: fn,
            jobName: work.name === undefined ? undefined : toJobName(work.name),
            period,
            schedulerNode: node,
            exit: work.loopBody ? 'continue' : 'return',
            fallbackJobName: toJobName(`${fileStem}-${node.loc.start.line}`) ?? `job-${node.loc.start.line}`,
          };
          if (work.decorator) facts.decorator = work.decorator;
          if (work.loopBody) facts.loopBody = work.loopBody;
          if (resolved?.member) facts.member = resolved.member;
          if (reschedule) facts.reschedule = reschedule;
          if (guardBlock) facts.guardBlock = guardBlock;
          const manual = manualReason(
            sourceCode,
            { ...work, period },
            fn,
            reschedule ?? guardBlock,
            !rescheduleCall && !delayedStart,
            delayedStart,
          );
          if (manual) facts.manual = manual;

          const runtime = runtimeImport(sourceCode, filename, PERIOD_GUARD, context.languageOptions?.sourceType);
          const statement = guardStatementText(facts, serviceName(settings.service, filename), {
            callee: runtime.callee,
            fallbackJobName: facts.fallbackJobName,
            exit: facts.exit,
          });
          const suggested = statement !== undefined && reschedule ? guardWithReschedule(statement, reschedule, sourceCode.text) : statement;
          const edits = suggested === undefined || manual ? undefined : guardInsertionEdits(facts, suggested, sourceCode.text);

          report({
            messageId: verdict === 'flag-gate' ? 'deploymentFlagGate' : 'unguardedSchedule',
            data: { scheduler: entry.id, guard: runtime.callee, work: work.name ?? 'this work' },
            // At the schedule, where the decision is made: the decorator, or the work where it is handed over.
            ...reportedAt(work),
            facts,
            suggest: edits
              ? [
                  {
                    messageId: 'addClaimPeriod',
                    data: { statement: suggested! },
                    // The import first: when both insert at offset 0 it must come before `async `.
                    fix: (fixer) => [...runtime.fix(fixer), ...edits.map((edit) => fixer.replaceTextRange(edit.range, edit.text))],
                  },
                ]
              : undefined,
          });
        }
      },
    };
  },
});

export default noUnguardedSchedule;
