// A cheap text test run before any AST work: whether a file can schedule work the way
// `no-unguarded-schedule` recognises (a timer global, or a scheduler module or decorator by
// name). The rule and the `guard-schedules` codemod share it, so both skip the same files.
//
// In stages, each a cheaper scan than one pattern of all eight words: the timer names, then the
// scheduler modules only in text that has `cron` or `schedule` in it at all.
const TIMERS = /setInterval|setTimeout/;
const CRON_MODULES = /node-cron|\bcron\b|croner/;
const SCHEDULE_MODULES = /node-schedule|toad-scheduler|@nestjs\/schedule/;

/** Whether `text` can hold a schedule the rule recognises. */
export function mentionsSchedule(text: string): boolean {
  return TIMERS.test(text) || (text.includes('cron') && CRON_MODULES.test(text)) || (text.includes('schedule') && SCHEDULE_MODULES.test(text));
}
