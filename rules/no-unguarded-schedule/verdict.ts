// Whether one scheduled work is reported, and how. A declared job (cron, croner, node-schedule,
// `@Cron`…, or a bare timer inside the project's own job runner) is business work unless it is
// shown to be guarded, coordinated or per-replica; a bare timer is reported only when its work
// reaches a shared effect (with `reportAll`, every unguarded schedule is). Work defined in, or
// calling into, another project module is judged by what that function does; unknown stays unknown.
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { workEffects, type Effects, type EffectsOptions } from '../../analysis/scheduled-work/external-effects.js';
import { isGuarded, type GuardLookup } from '../../analysis/scheduled-work/is-guarded.js';
import { effectsOfReferenceByName } from '../../analysis/scheduled-work/cross-file-work.js';
import {
  isJobRunner,
  iteratesOwnCollection,
  scheduleGate,
  workStartsWithFlagCheck,
  workStartsWithReplicaZeroCheck,
} from '../../analysis/scheduled-work/schedule-gates.js';
import type { ScheduledWork } from '../../analysis/scheduled-work/scheduled-work.js';
import { calleeName, isPerReplicaName, namesObjectlessIdleDrop, renewsItself } from '../../analysis/scheduled-work/work-intent.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { PER_REPLICA_DECORATOR } from '../../src/knowledge/guards.js';
import { ownedByOneCaller } from './timer-lifetime.js';
import { twinsDeclaredJob } from './declared-twin.js';
import { handsReadRowsOn } from '../../analysis/scheduled-work/poll-loops.js';
import { renewsHeldLock } from '../../analysis/scheduled-work/lock-heartbeat.js';
import { decoratorName } from '../../analysis/ast/decorator-name.js';
import { feedsOwnStream } from '../../analysis/scheduled-work/own-streams.js';
import { workOverOwnConnections } from '../../analysis/scheduled-work/own-connections.js';
import { walksOwnPool } from '../../analysis/scheduled-work/own-pool.js';
import { HEALTH_PROBE_WORDS } from '../../src/knowledge/own-pools.js';
import { nameWords } from '../../analysis/ast/name-words.js';
import { endsThisProcess } from '../../analysis/scheduled-work/process-exit.js';
import { armsSchedules } from '../../analysis/scheduled-work/arms-schedules.js';
import type { FunctionLike } from '../../analysis/scheduled-work/work-function.js';
import { workGatedByLockHeldFlag } from '../../analysis/scheduled-work/lock-held-flag.js';
import { workRunsOnWonLease } from './won-lease-branch.js';
import { emitsOnlyToOwnSockets } from './own-socket-broadcast.js';
import { drainsOwnBuffer } from '../../analysis/scheduled-work/drained-buffer.js';
import { ownQueueDrainLoops } from '../../analysis/scheduled-work/own-map-drain.js';
import { runsImportedProjectWork } from '../../analysis/scheduled-work/imported-work.js';
import {
  handsDatabaseHandle,
  importedProjectWorkCalls,
  onlyLocalFunctionCalled,
} from '../../analysis/scheduled-work/imported-work-call.js';
import { armsTimerPerStoredRow } from '../../analysis/scheduled-work/per-row-timers.js';
import { armedPerRowAlone } from './armed-per-row.js';
import { runsImportedCallInArrow } from './imported-call-arrow.js';
import { redrawsTerminal } from '../../analysis/scheduled-work/terminal-redraw.js';
import { namesOwnProcessWork, namesProcessStateRefresh } from '../../analysis/scheduled-work/process-state-refresh.js';
import { namesTemporaryRowsDrop } from './temporary-rows.js';
import { restartsOwnProcesses } from './own-restart.js';
import { takesEachItemAtomically } from './atomic-take.js';
import { pullsFromDurableConsumer } from './jetstream-pull.js';
import { keepsHeldRowAlive } from './row-keepalive.js';

const NO_TELEMETRY: ReadonlySet<string> = new Set();

/** `report`: runs on every replica; `flag-gate`: only a deployment flag stands between it and every replica. */
export type Verdict = 'quiet' | 'report' | 'flag-gate';

export interface VerdictInput {
  work: ScheduledWork;
  sourceCode: SourceCode;
  filename: string;
  guards: GuardLookup;
  effectsOptions: EffectsOptions;
  reportAll: boolean;
  /** What the work does when it is defined in another project module (undefined: not found). */
  elsewhere?: Effects | undefined;
  /** Whether the work stays on this host (reads, its own memory, its cache directory): asked only of work about to be reported. */
  staysOnHost?: (work: ScheduledWork) => boolean;
  /** The file's other scheduled works: a bare timer running the work of a declared job beside it is its twin. */
  works?: readonly ScheduledWork[];
}

/** The body of a poll loop, or of a timer's work function, reads rows from a shared store and hands each one on. */
function handsReadRows(sourceCode: SourceCode, work: ScheduledWork): boolean {
  // A timer's arrow that only calls a function of the file (`async () => { await refreshTiers(); }`) runs that function's body.
  const fn = work.resolved?.fn && (onlyLocalFunctionCalled(sourceCode, work.resolved.fn) ?? work.resolved.fn);
  const body = work.pollLoop !== undefined ? work.loopBody : fn?.body.type === 'BlockStatement' ? fn.body : undefined;
  return body !== undefined && handsReadRowsOn(sourceCode, body);
}

/** `fn` builds other schedules of the file and, apart from their work, writes nothing shared. */
function buildsOnlySchedules(
  sourceCode: SourceCode,
  fn: FunctionLike,
  work: ScheduledWork,
  works: readonly ScheduledWork[],
  effectsOptions: EffectsOptions,
): boolean {
  const others = works.filter((w) => w !== work).map((w) => w.schedulerNode);
  if (!armsSchedules(sourceCode, fn, others)) return false;
  return !workEffects(fn.body, { ...effectsOptions, skip: new Set(others) }).sharedWrite;
}

/** Names a work of this process: its own instance's (`evictIdle`), a refresh of what it holds, its liveness or metrics. */
function namesThisProcessWork(name: string): boolean {
  return isPerReplicaName(name) || namesProcessStateRefresh(name) || namesOwnProcessWork(name);
}

/**
 * A timer's work written in place that only calls other project modules' functions, one of them
 * handed the database handle (`() => void archiveStale(db)`), none named for this process's own work.
 */
function runsDatabaseJobInPlace(sourceCode: SourceCode, work: ScheduledWork): boolean {
  if (!work.entry.bareTimer || work.pollLoop || work.loopBody) return false;
  const calls = importedProjectWorkCalls(sourceCode, work.resolved?.fn);
  if (!calls?.some(handsDatabaseHandle)) return false;
  return !calls.some((call) => {
    const name = calleeName(unwrapExpression(call.callee));
    return name !== undefined && namesThisProcessWork(name);
  });
}

/** The work drains a keyed queue of the instance (own-map-drain.ts) and, beside what it does per entry, writes nothing shared. */
function drainsOwnKeyedQueue(sourceCode: SourceCode, fn: FunctionLike, effectsOptions: EffectsOptions): boolean {
  const loops = ownQueueDrainLoops(sourceCode, fn);
  return loops.length > 0 && !workEffects(fn.body, { ...effectsOptions, skip: new Set(loops) }).sharedWrite;
}

/** `@PerReplica()` on the scheduled method: every replica runs it by design. */
function isMarkedPerReplica(work: ScheduledWork): boolean {
  const member = work.resolved?.member;
  return member?.type === 'MethodDefinition' && (member.decorators ?? []).some((d) => decoratorName(d) === PER_REPLICA_DECORATOR);
}

export function scheduleVerdict({
  work,
  sourceCode,
  filename,
  guards,
  effectsOptions,
  reportAll,
  elsewhere,
  staysOnHost,
  works,
}: VerdictInput): Verdict {
  const fn = work.resolved?.fn;
  const body = fn ? fn.body : work.loopBody;
  if (body && isGuarded(body, guards, effectsOptions)) return 'quiet';
  if (isMarkedPerReplica(work)) return 'quiet';
  const effects = body
    ? workEffects(body, effectsOptions)
    : (elsewhere ?? effectsOfReferenceByName(work.expression, effectsOptions.telemetry ?? NO_TELEMETRY));
  // A poll loop whose pass takes its item atomically, or pulls from an acked JetStream consumer: the take is the claim.
  const pass = work.pollLoop ? work.loopBody : undefined;
  if (effects.coordinated || (pass && (takesEachItemAtomically(sourceCode, pass) || pullsFromDurableConsumer(sourceCode, pass))))
    return 'quiet';
  // A one-shot at start that only reads and builds this process's other schedules: those are judged where they are built.
  if (work.entry.oneShot && fn && buildsOnlySchedules(sourceCode, fn, work, works ?? [], effectsOptions)) return 'quiet';
  const declared =
    !work.entry.bareTimer ||
    isJobRunner(sourceCode, work.schedulerNode, filename, fn) ||
    // A timer handed another project module's function by reference: it runs that module's job each period.
    runsImportedProjectWork(sourceCode, work) ||
    // Written in place: a thin arrow (or a same-file `tick`) that only hands the database to such a function.
    runsDatabaseJobInPlace(sourceCode, work) ||
    // An arrow doing nothing but call such a function (`() => pollInbox()`): as if handed it by reference.
    runsImportedCallInArrow(sourceCode, work, effectsOptions, namesThisProcessWork) ||
    // A poll loop or a timer's work handing each row it read from a shared store to a function it cannot read.
    (effects.external && !effects.sharedWrite && handsReadRows(sourceCode, work)) ||
    // A loop arming one timer per row it read from a shared store: each replica fires every row.
    (effects.external &&
      !effects.sharedWrite &&
      fn !== undefined &&
      work.entry.selfRescheduling &&
      armsTimerPerStoredRow(sourceCode, fn.body)) ||
    // A one-off timer armed once per row read from a shared store (per-row-timers.ts): every replica fires every row.
    armedPerRowAlone(sourceCode, work, works, effectsOptions) ||
    // The timer twin of a declared job beside it, running the same work.
    (effects.external && !effects.sharedWrite && works !== undefined && twinsDeclaredJob(sourceCode, work, works));
  const perReplica =
    effects.perReplica ||
    // By its name, unless a drop of idle things (`closeStale`) or of temporary records (`deleteTempInvites`) is seen writing shared rows.
    (work.name !== undefined &&
      isPerReplicaName(work.name) &&
      !(effects.sharedWrite && (namesObjectlessIdleDrop(work.name) || namesTemporaryRowsDrop(work.name)))) ||
    // Named for refreshing what this process holds (`updateConfig`, `reloadCache`), and seen writing nothing shared.
    (work.name !== undefined && !effects.sharedWrite && namesProcessStateRefresh(work.name)) ||
    // Named for health probes of this process (`storageProbesTick`).
    (work.name !== undefined && nameWords(work.name).some((w) => HEALTH_PROBE_WORDS.includes(w))) ||
    // Named for this process's liveness, presence or metrics (`beAlive`, `rotateStatus`, `reportMetrics`).
    (work.name !== undefined && namesOwnProcessWork(work.name)) ||
    // A lease or lock class renewing itself (`setInterval(() => this.renew(), ms)` in `class JobLease`).
    (work.name !== undefined && work.resolved?.member !== undefined && renewsItself(work.resolved.member, work.name)) ||
    // A bare timer flushing what this process holds in memory (its users, its dirty notes, its buffer).
    (!declared && fn !== undefined && iteratesOwnCollection(sourceCode, fn)) ||
    // A job (declared or not) sending what this process gathered and starting afresh (`this.stats = {}`).
    (fn !== undefined && effects.external && drainsOwnBuffer(sourceCode, fn)) ||
    // A job taking each entry off a keyed queue of the instance that its own handlers fill, one per call.
    (fn !== undefined && effects.external && drainsOwnKeyedQueue(sourceCode, fn, effectsOptions)) ||
    // The heartbeat of a lock this process took (`this.heartbeat = setInterval(() => UPDATE locks …)`).
    (fn !== undefined && renewsHeldLock(sourceCode, work.schedulerNode, fn)) ||
    // A timer keeping this worker's hold on one row alive (`UPDATE jobs SET locked_at = $1 WHERE id = $2`).
    (fn !== undefined && work.entry.bareTimer === true && keepsHeldRowAlive(sourceCode, fn, effectsOptions)) ||
    // A walk over what a pool or cache getter hands out in memory (`getSessionPool()`): this process's own entries.
    (fn !== undefined && walksOwnPool(sourceCode, fn)) ||
    // Work over the users connected to this process's sockets: each replica does its own share.
    (fn !== undefined && workOverOwnConnections(sourceCode, fn)) ||
    // A watchdog ending this process when it finds it stale: each replica watches itself.
    (fn !== undefined && work.entry.bareTimer === true && endsThisProcess(sourceCode, fn));
  const harmful = reportAll || (!perReplica && (declared ? effects.external : effects.sharedWrite));
  if (!harmful) return 'quiet';
  // A timer of one connection, request or call, cleared when that owner ends, feeding the stream one response
  // reads, or telling this process's socket.io clients what it holds: once per owner, not per replica.
  if (
    work.entry.bareTimer &&
    (ownedByOneCaller(sourceCode, work.schedulerNode, fn) ||
      (fn && (feedsOwnStream(sourceCode, fn) || emitsOnlyToOwnSockets(sourceCode, fn, effectsOptions))))
  )
    return 'quiet';
  if (!reportAll && (staysOnHost?.(work) || (fn !== undefined && restartsOwnProcesses(fn)))) return 'quiet';
  // A screen redrawn for someone watching a shell (an operator's monitor), not a service's job.
  if (fn && redrawsTerminal(sourceCode, fn)) return 'quiet';
  // Last, as it may index every call of the file (the callers of the function that sets the
  // schedule): asked only of work that would be reported.
  const gate = scheduleGate(sourceCode, work.schedulerNode);
  // Led by one replica, or set up only in development (never at two or more replicas).
  if (gate === 'leader' || gate === 'development' || workStartsWithReplicaZeroCheck(sourceCode, fn)) return 'quiet';
  // Run only while a flag says this process holds a distributed lock (set true in the lock's callback).
  // Or only on the branch a won Redis `SET key NX` lease opens.
  if (workGatedByLockHeldFlag(sourceCode, fn) || workRunsOnWonLease(fn, effectsOptions)) return 'quiet';
  return gate === 'deployment-flag' || workStartsWithFlagCheck(sourceCode, fn) ? 'flag-gate' : 'report';
}
