// A scheduler module handed to a function as a parameter instead of imported where it is used:
// `module.exports = (cron) => { cron.schedule('*/5 * * * *', sweep) }`, called by the server as
// `require('./jobs/sweep')(require('node-cron'))`. The parameter is taken for node-cron only when
// its name says so (a word `cron`) and the call hands over a cron expression written out: an
// `agenda.schedule('in 5 minutes', …)` or a `scheduler.schedule(date, fn)` is another API. Plain data
// read by rules/no-unguarded-schedule/handed-scheduler-module.ts.

export interface HandedSchedulerModule {
  /** The catalogue entry the call is judged as (src/knowledge/schedulers.ts). */
  scheduler: string;
  /** A word the parameter's name holds (`cron`, `nodeCron`, `cronLib`). */
  nameWord: string;
  /** The method called on it. */
  method: string;
}

export const HANDED_SCHEDULER_MODULES: readonly HandedSchedulerModule[] = [
  { scheduler: 'node-cron.schedule', nameWord: 'cron', method: 'schedule' },
];

/** What such a call writes out (`cron.schedule('`, `nodeCron\n  .schedule("`): the rule's text test and where its candidates are. */
export const HANDED_CRON_CALL = /\b[\w$]*[Cc]ron[\w$]*\s*\.\s*schedule\s*\(\s*['"`]/;

/** A cron expression written out: five fields, or six with seconds, of digits, names, `*`, `/`, `,`, `-`, `?`, `L`, `W`, `#`. */
export function isCronExpressionText(text: string): boolean {
  const fields = text.trim().split(/\s+/);
  return (fields.length === 5 || fields.length === 6) && fields.every((field) => /^[\d*/,?#A-Za-z-]+$/.test(field)) && /[\d*]/.test(text);
}
