// Schedulers whose job can be built stopped and started later by a method call (`job.start()`).
// A job built so at a module's top level runs only where that method is called: the rule then asks
// who calls the function that starts it. Plain data, read by analysis/scheduled-work/schedule-starters.ts.

export interface DeferredStart {
  /** Catalogue id (src/knowledge/schedulers.ts). */
  scheduler: string;
  /** The argument (or an option of that argument) that says whether the job starts when it is built. */
  flag?: { argument: number; option?: string };
  /** The flag's value that starts the job at once. */
  startsWhen: boolean;
  /** Whether a job built without the flag starts at once. */
  startsByDefault: boolean;
  /** Methods of the job that start it. */
  startMethods: readonly string[];
}

export const DEFERRED_STARTS: readonly DeferredStart[] = [
  // cron: `new CronJob(cronTime, onTick, onComplete, start, timeZone)`; `start` defaults to false.
  { scheduler: 'cron.CronJob', flag: { argument: 3 }, startsWhen: true, startsByDefault: false, startMethods: ['start'] },
  {
    scheduler: 'cron.CronJob.from',
    flag: { argument: 0, option: 'start' },
    startsWhen: true,
    startsByDefault: false,
    startMethods: ['start'],
  },
  // croner: `new Cron(pattern, { paused: true }, fn)` waits for `resume()`.
  { scheduler: 'croner.Cron', flag: { argument: 1, option: 'paused' }, startsWhen: false, startsByDefault: true, startMethods: ['resume'] },
  // node-cron 3: `schedule(expression, fn, { scheduled: false })`; node-cron 4: `createTask` builds it stopped.
  {
    scheduler: 'node-cron.schedule',
    flag: { argument: 2, option: 'scheduled' },
    startsWhen: true,
    startsByDefault: true,
    startMethods: ['start'],
  },
  { scheduler: 'node-cron.createTask', startsWhen: true, startsByDefault: false, startMethods: ['start'] },
];

/**
 * A one-shot timer set at start-up minutes out (`setTimeout(rebalanceTiers, 5 * 60_000)` in
 * `initTierTask()`) runs its work once more per replica start: the least delay that makes it such
 * a run rather than a tick to let the process settle, and the first words of a function that sets
 * the service up (one with parameters is otherwise taken for a handler of an event or a request).
 */
export const DELAYED_START_MIN_MS = 60_000;
export const START_UP_FUNCTION_WORDS: readonly string[] = [
  'init',
  'initialize',
  'start',
  'setup',
  'boot',
  'bootstrap',
  'launch',
  'main',
  'register',
];
