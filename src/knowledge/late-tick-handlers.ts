// Schedulers whose work may be handed over after the job is built: cron's
// `const job = new CronJob({ cronTime })`, then `job.addCallback(fn)` or `job.fireOnTick = fn`
// (the method every tick runs, replaced), then `job.start()`. The function handed over is the work.
// Plain data, keyed by the scheduler catalogue's id (schedulers.ts).

export interface LateTickHandler {
  /** Properties of the job whose assigned function runs at each tick. */
  properties: readonly string[];
  /** Methods of the job that add a function run at each tick. */
  methods: readonly string[];
}

export const LATE_TICK_HANDLERS: Readonly<Record<string, LateTickHandler>> = {
  'cron.CronJob': { properties: ['fireOnTick', 'onTick'], methods: ['addCallback'] },
};
