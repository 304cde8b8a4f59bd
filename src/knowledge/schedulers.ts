// Which module exports which scheduler, and where its work and its schedule sit in a call. Plain data: the
// `no-unguarded-schedule` rule and the `guard-schedules` codemod read it; a scheduler is an entry here, not code in the rule.
import { PLUGIN_SCHEDULERS } from './plugin-schedulers.js';
import { DECORATOR_SCHEDULERS } from './decorator-schedulers.js';

/** How the scheduler is invoked. `decorator` is a decorator factory call (`@Cron('…')`). */
export type SchedulerKind = 'call' | 'construct' | 'decorator';

/** An argument of the scheduling call; `before-work` is the argument just before the work. */
export type ArgumentRef = number | 'before-work' | 'last';

/**
 * Where the work is.
 * - `argument`: the work function is that argument (optionally the `option` property of an
 *   object literal there, like `{ onTick }`).
 * - `task`: that argument is a task object (`new Task('id', handler)`, inline or a same-file
 *   `const`) whose `taskArgument` is the work function (toad-scheduler).
 * - `for-await-body`: an async iterator; the body of the `for await` loop over it is the work.
 * - `decorated-method`: the method the decorator sits on.
 * - `job-files`: the instance runs job files (a worker per job, on each job's interval or cron) once
 *   its `startMethod` is called (`bree.start()`); the jobs, named in the `option` property of the
 *   first argument, are the work, defined in files of their own. The schedule is decided at the start.
 */
export type WorkLocation =
  | { kind: 'argument'; argument: number; option?: string }
  | { kind: 'task'; argument: number; taskArgument: number }
  | { kind: 'for-await-body' }
  | { kind: 'decorated-method' }
  | { kind: 'job-files'; option: string; startMethod: string };

/**
 * Where the schedule is: an interval in milliseconds, or a cron expression; either as an argument
 * or as a property of an object literal argument.
 */
export interface ScheduleLocation {
  kind: 'interval' | 'cron';
  argument: ArgumentRef;
  option?: string;
  /** toad-scheduler's `{ hours, minutes, seconds, milliseconds }` interval object. */
  unitObject?: boolean;
}

/** An option that, when set to `value`, means the scheduler coordinates replicas itself. */
export interface CoordinatedOption {
  argument: ArgumentRef;
  option: string;
  value: boolean | string | number;
}

export interface SchedulerEntry {
  /** Catalogue id used in messages and codemod facts, e.g. `node-cron.schedule`. */
  id: string;
  /** Module specifiers it is imported from; `null` for a global (`setInterval`). */
  modules: readonly (string | null)[];
  /** Export path inside the module (`['CronJob', 'from']`); for a default-export CJS module the first key is the property. */
  path: readonly string[];
  kind: SchedulerKind;
  /** Candidate work locations, tried in order; the first one holding a function (or a name) wins. */
  work: readonly WorkLocation[];
  /** Candidate schedule locations, tried in order. */
  schedule: readonly ScheduleLocation[];
  /** Where the time zone sits, if the scheduler takes one: an argument, or an option inside it. */
  timeZone?: { argument: ArgumentRef; option?: string };
  /** Options that make the schedule already coordinated across replicas. */
  coordinated?: readonly CoordinatedOption[];
  /** The callback reschedules itself (`setTimeout` inside its own work function). */
  selfRescheduling?: boolean;
  /**
   * A bare timer (`setInterval`, a `setTimeout` loop): reported only when its work reaches a shared
   * effect. Every other entry is a declared job: business work unless shown otherwise.
   */
  bareTimer?: boolean;
  /**
   * Runs its work once per process start (`@Timeout`): when that work only reads and sets up other
   * schedules of this process, those schedules are what repeats, judged where they are built.
   */
  oneShot?: boolean;
  /** Argument holding a job name usable as the lease key's job part (only when the work sits at `workAt`, if given). */
  nameArgument?: { argument: ArgumentRef; option?: string; workAt?: number };
}

const TIMERS = [null, 'timers', 'node:timers'] as const;
/** croner: `Cron(pattern, options?, fn)`, the callback second or third. */
function cronerEntry(path: readonly string[], kind: 'construct' | 'call'): SchedulerEntry {
  return {
    id: 'croner.Cron',
    modules: ['croner'],
    path,
    kind,
    work: [
      { kind: 'argument', argument: 2 },
      { kind: 'argument', argument: 1 },
    ],
    schedule: [{ kind: 'cron', argument: 0 }],
    timeZone: { argument: 1, option: 'timezone' },
    nameArgument: { argument: 1, option: 'name' },
  };
}
/** node-cron: `schedule` / `createTask(expression, fn, options?)`; `{ distributed: true }` coordinates it. */
function nodeCronEntry(method: 'schedule' | 'createTask'): SchedulerEntry {
  return {
    id: `node-cron.${method}`,
    modules: ['node-cron'],
    path: [method],
    kind: 'call',
    work: [{ kind: 'argument', argument: 1 }],
    schedule: [{ kind: 'cron', argument: 0 }],
    timeZone: { argument: 2, option: 'timezone' },
    coordinated: [{ argument: 2, option: 'distributed', value: true }],
    nameArgument: { argument: 2, option: 'name' },
  };
}

const TIMERS_PROMISES = ['timers/promises', 'node:timers/promises'] as const;

export const SCHEDULERS: readonly SchedulerEntry[] = [
  {
    id: 'setInterval',
    modules: TIMERS,
    path: ['setInterval'],
    kind: 'call',
    work: [{ kind: 'argument', argument: 0 }],
    schedule: [{ kind: 'interval', argument: 1 }],
    bareTimer: true,
  },
  {
    // Meteor's server timers are the same timers, bound to the fiber.
    id: 'Meteor.setInterval',
    modules: [null, 'meteor/meteor'],
    path: ['Meteor', 'setInterval'],
    kind: 'call',
    work: [{ kind: 'argument', argument: 0 }],
    schedule: [{ kind: 'interval', argument: 1 }],
    bareTimer: true,
  },
  {
    // `function tick() { …; setTimeout(tick, ms); }`: only a setTimeout inside its own work
    // function is a schedule; a one-off setTimeout is not.
    id: 'setTimeout',
    modules: TIMERS,
    path: ['setTimeout'],
    kind: 'call',
    work: [{ kind: 'argument', argument: 0 }],
    schedule: [{ kind: 'interval', argument: 1 }],
    selfRescheduling: true,
    bareTimer: true,
  },
  {
    id: 'timers/promises.setInterval',
    modules: TIMERS_PROMISES,
    path: ['setInterval'],
    kind: 'call',
    work: [{ kind: 'for-await-body' }],
    schedule: [{ kind: 'interval', argument: 0 }],
    bareTimer: true,
  },
  {
    // set-interval-async: `setIntervalAsync(fn, ms)`, the next run waiting for the last (its
    // `/dynamic`, `/fixed` and `/legacy` entry points before v3).
    id: 'set-interval-async.setIntervalAsync',
    modules: ['set-interval-async', 'set-interval-async/dynamic', 'set-interval-async/fixed', 'set-interval-async/legacy'],
    path: ['setIntervalAsync'],
    kind: 'call',
    work: [{ kind: 'argument', argument: 0 }],
    schedule: [{ kind: 'interval', argument: 1 }],
    bareTimer: true,
  },
  nodeCronEntry('schedule'),
  nodeCronEntry('createTask'),
  {
    // later / @breejs/later: `later.setInterval(fn, later.parse.cron('0 * * * *'))` fires on a
    // parsed cron or text schedule in this process (Bree's own scheduling clock).
    id: 'later.setInterval',
    modules: ['@breejs/later', 'later'],
    path: ['setInterval'],
    kind: 'call',
    work: [{ kind: 'argument', argument: 0 }],
    schedule: [{ kind: 'cron', argument: 1 }],
  },
  {
    // `new CronJob(cronTime, onTick, …)`; before cron v3 also `new CronJob({ cronTime, onTick, start })`.
    id: 'cron.CronJob',
    modules: ['cron'],
    path: ['CronJob'],
    kind: 'construct',
    work: [
      { kind: 'argument', argument: 1 },
      { kind: 'argument', argument: 0, option: 'onTick' },
    ],
    schedule: [
      { kind: 'cron', argument: 0 },
      { kind: 'cron', argument: 0, option: 'cronTime' },
    ],
    timeZone: { argument: 4 },
  },
  {
    // cron's factory, `cron.job(cronTime, onTick, …)` (before v3).
    id: 'cron.job',
    modules: ['cron'],
    path: ['job'],
    kind: 'call',
    work: [{ kind: 'argument', argument: 1 }],
    schedule: [{ kind: 'cron', argument: 0 }],
    timeZone: { argument: 4 },
  },
  {
    id: 'cron.CronJob.from',
    modules: ['cron'],
    path: ['CronJob', 'from'],
    kind: 'call',
    work: [{ kind: 'argument', argument: 0, option: 'onTick' }],
    schedule: [{ kind: 'cron', argument: 0, option: 'cronTime' }],
    timeZone: { argument: 0, option: 'timeZone' },
    nameArgument: { argument: 0, option: 'name' },
  },
  {
    // Bree: `new Bree({ jobs: ['digest', { name: 'cleanup', cron: '0 3 * * *' }] })`, then `bree.start()`:
    // every replica runs every job file on its interval or cron.
    id: 'bree',
    modules: ['bree'],
    path: [],
    kind: 'construct',
    work: [{ kind: 'job-files', option: 'jobs', startMethod: 'start' }],
    schedule: [],
  },
  // `new Cron(…)`, `Cron(…)`; `const Cron = require('croner')` makes the CommonJS module itself the class. Then plugin objects.
  ...(['construct', 'call'] as const).flatMap((kind) => [cronerEntry(['Cron'], kind), cronerEntry([], kind)]),
  ...PLUGIN_SCHEDULERS,
  {
    // scheduleJob(rule, fn) or scheduleJob(name, rule, fn); rule is a cron string, a
    // RecurrenceRule, a Date, or `{ rule, tz }`.
    id: 'node-schedule.scheduleJob',
    modules: ['node-schedule'],
    path: ['scheduleJob'],
    kind: 'call',
    work: [
      { kind: 'argument', argument: 2 },
      { kind: 'argument', argument: 1 },
    ],
    schedule: [
      { kind: 'cron', argument: 'before-work' },
      { kind: 'cron', argument: 'before-work', option: 'rule' },
    ],
    timeZone: { argument: 'before-work', option: 'tz' },
    nameArgument: { argument: 0, workAt: 2 },
  },
  {
    id: 'toad-scheduler.SimpleIntervalJob',
    modules: ['toad-scheduler'],
    path: ['SimpleIntervalJob'],
    kind: 'construct',
    work: [{ kind: 'task', argument: 1, taskArgument: 1 }],
    schedule: [{ kind: 'interval', argument: 0, unitObject: true }],
  },
  {
    id: 'toad-scheduler.LongIntervalJob',
    modules: ['toad-scheduler'],
    path: ['LongIntervalJob'],
    kind: 'construct',
    work: [{ kind: 'task', argument: 1, taskArgument: 1 }],
    schedule: [{ kind: 'interval', argument: 0, unitObject: true }],
  },
  {
    id: 'toad-scheduler.CronJob',
    modules: ['toad-scheduler'],
    path: ['CronJob'],
    kind: 'construct',
    work: [{ kind: 'task', argument: 1, taskArgument: 1 }],
    schedule: [{ kind: 'cron', argument: 0, option: 'cronExpression' }],
    timeZone: { argument: 0, option: 'timezone' },
  },
  {
    id: 'nestjs.Cron',
    modules: ['@nestjs/schedule', '@nestcloud/schedule'],
    path: ['Cron'],
    kind: 'decorator',
    work: [{ kind: 'decorated-method' }],
    schedule: [{ kind: 'cron', argument: 0 }],
    timeZone: { argument: 1, option: 'timeZone' },
    nameArgument: { argument: 1, option: 'name' },
  },
  {
    // @Interval(ms) or @Interval('name', ms); nest-schedule's follow (decorator-schedulers.ts)
    id: 'nestjs.Interval',
    modules: ['@nestjs/schedule', '@nestcloud/schedule'],
    path: ['Interval'],
    kind: 'decorator',
    work: [{ kind: 'decorated-method' }],
    schedule: [{ kind: 'interval', argument: 'last' }],
  },
  {
    // A one-off after start-up, but every replica (and every restart) runs it.
    id: 'nestjs.Timeout',
    modules: ['@nestjs/schedule', '@nestcloud/schedule'],
    path: ['Timeout'],
    kind: 'decorator',
    work: [{ kind: 'decorated-method' }],
    oneShot: true,
    schedule: [{ kind: 'interval', argument: 'last' }],
  },
  ...DECORATOR_SCHEDULERS,
];

/**
 * `SchedulerRegistry` methods that register a timer or job under a name. The timer itself is
 * found through its own scheduler entry (`setInterval`, `new CronJob`); the registry contributes
 * the job name.
 */
export const SCHEDULER_REGISTRY = {
  module: '@nestjs/schedule',
  className: 'SchedulerRegistry',
  methods: { addInterval: 1, addCronJob: 1, addTimeout: 1 } as Readonly<Record<string, number>>,
  nameArgument: 0,
} as const;

/** The modules the catalogue knows, for a cheap text pre-filter. */
export const SCHEDULER_MODULES: readonly string[] = [
  ...new Set(SCHEDULERS.flatMap((s) => s.modules).filter((m): m is string => m !== null)),
];

/** Resolves an ArgumentRef against a call's argument count and the work argument's index. */
export function argumentIndex(ref: ArgumentRef, argumentCount: number, workIndex: number | undefined): number | undefined {
  if (typeof ref === 'number') return ref;
  if (ref === 'last') return argumentCount > 0 ? argumentCount - 1 : undefined;
  return workIndex !== undefined && workIndex > 0 ? workIndex - 1 : undefined;
}

/** Milliseconds for toad-scheduler's interval object, or undefined if a unit is unknown. */
export function unitObjectToMs(units: Readonly<Record<string, number>>): number | undefined {
  const factors: Record<string, number> = {
    days: 86_400_000,
    hours: 3_600_000,
    minutes: 60_000,
    seconds: 1000,
    milliseconds: 1,
  };
  let total = 0;
  for (const [unit, value] of Object.entries(units)) {
    const factor = factors[unit];
    if (factor === undefined) {
      if (unit === 'runImmediately') continue;
      return undefined;
    }
    total += factor * value;
  }
  return total > 0 ? total : undefined;
}

/**
 * How a timer's owner ends it: the clearers, the listener methods and the end events (or `on<event>` properties) of a
 * connection, stream, request or call. A timer cleared there lives as long as that one owner, not as long as the replica.
 */
export const TIMER_LIFETIME = {
  clearers: ['clearInterval', 'clearTimeout'],
  listenerMethods: ['on', 'once', 'addListener', 'addEventListener', 'prependListener', 'prependOnceListener'],
  endEvents: [
    'close',
    'end',
    'finish',
    'disconnect',
    'disconnected',
    'abort',
    'aborted',
    'error',
    'destroy',
    'destroyed',
    'cancel',
    'exit',
  ],
  /** What a restart loop starts and watches: a child process, a connection, a worker thread. */
  restartable: ['fork', 'spawn', 'execFile', 'connect', 'createConnection', 'WebSocket', 'Worker', 'EventSource'],
  /** Receivers whose end events are the process's own (`process.on('exit')`): not an owner's. */
  processReceivers: ['process'],
  /** Words of a counter that bounds a retry (`tryCount++ < 5`, `attempt >= maxAttempts`, `retries > 3`). */
  attemptWords: ['attempt', 'attempts', 'retry', 'retries', 'tries', 'try', 'trial', 'trials'],
  /** The first word of a counter's bound named after it (`maxCount` for `count`, `MAX_TRIES` for `tries`). */
  maximumWord: 'max',
} as const;

/**
 * An endless poll loop (`while (true) { …; await delay(ms); }`, `for (;;)`, `while (!stopped)`) schedules its body like a
 * timer. The pause is an awaited call of one of `delayNames` (timers/promises `setTimeout`, a project's or a package's
 * `sleep`/`delay`), or `new Promise((r) => setTimeout(r, ms))`.
 */
export const POLL_LOOP: SchedulerEntry = {
  id: 'poll-loop',
  modules: [],
  path: [],
  kind: 'call',
  work: [],
  schedule: [],
  bareTimer: true,
};
export const POLL_LOOP_DELAY_NAMES: readonly string[] = ['setTimeout', 'sleep', 'delay', 'wait', 'pause', 'sleepMs', 'delayMs', 'waitMs'];
/**
 * Modules whose importers are durable workflow code (Temporal's workflow API): the engine runs one
 * execution per workflow id across the cluster and its `sleep` is a durable timer, so an endless
 * loop there is not a schedule every replica runs.
 */
export const DURABLE_WORKFLOW_MODULES: readonly string[] = ['@temporalio/workflow'];
