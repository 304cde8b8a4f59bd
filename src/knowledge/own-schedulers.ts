// Schedules a project registers through its own code rather than a scheduler library's call: a job
// manager of its own (`this.jobs.add('digest', '0 * * * *', send)`, `app.scheduler.addJob({ cronTime,
// onTick })`), and a timer provider it injects (`this.timers.setTimeout(tick, ms)`, `this.clock.setInterval`).
// Plain data read by analysis/scheduled-work/own-cron-registrations.ts and injected-timers.ts.
import { isCronExpressionText } from './handed-schedulers.js';

/** Options of a job object that hold its cron schedule whatever their value (`cronTime` is the cron package's own name). */
export const CRON_TIME_OPTIONS: readonly string[] = ['cronTime', 'cronExpression', 'cronPattern'];

/** Options of a job object that hold its work, tried first; otherwise the job's one function-valued option. */
export const JOB_WORK_OPTIONS: readonly string[] = [
  'onTick',
  'command',
  'handler',
  'task',
  'run',
  'execute',
  'job',
  'fn',
  'callback',
  'work',
];

/**
 * Words of a callee that reads a cron expression without registering it: it formats, describes, validates or
 * parses it (`cronstrue.toString`, `isValidCron`, `describeSchedule`, `parseExpression`, `nextRunOf`).
 */
export const CRON_READER_WORDS: readonly string[] = [
  'describe',
  'format',
  'humanize',
  'explain',
  'validate',
  'valid',
  'is',
  'parse',
  'string',
  'next',
  'preview',
  'print',
  'log',
  'check',
  'test',
  'expect',
  'assert',
];

/**
 * A cron schedule written out: a cron expression (handed-schedulers.ts) with a wildcard, a step or a `?`
 * in a field (`0 * * * *`, `*\/5 9-17 * * 1-5`), so that a string of five numbers (`'1 2 3 4 5'`) is not one.
 */
export function isWrittenCronSchedule(text: string): boolean {
  return isCronExpressionText(text) && /[*/?]/.test(text);
}

/**
 * What a registration writes out: a job option named for its cron time, or a cron schedule between quotes — five
 * or six fields, one of them with a wildcard or a step (as `isWrittenCronSchedule` asks), so that a quoted sentence
 * of five words does not send the file to the walk.
 */
export const OWN_CRON_REGISTRATION =
  /\bcron(?:Time|Expression|Pattern)\s*:|['"`]\s*(?=[^'"`\n]*[*/?])[\d*/,?#A-Za-z-]+(?:[ \t]+[\d*/,?#A-Za-z-]+){4,5}\s*['"`]/;

/** Words of a receiver's name or type that make it a timer provider (`this.timers`, `this._clock`, `scheduler: Scheduler`). */
export const TIMER_PROVIDER_WORDS: readonly string[] = ['timer', 'timers', 'clock', 'scheduler'];

/** The timer methods such a provider stands in for, by the global timer (src/knowledge/schedulers.ts) each is. */
export const PROVIDED_TIMER_METHODS: readonly string[] = ['setTimeout', 'setInterval'];

/** A provider's timer call as written (`.setTimeout(`): the rule's text test and where its candidates are. */
export const PROVIDED_TIMER_CALL = /\.\s*set(?:Timeout|Interval)\s*\(/;
