// A cheap text test run before any AST work: whether a file can schedule work the way
// `no-unguarded-schedule` recognises (a timer global, or a scheduler module or decorator by
// name). The rule and the `guard-schedules` codemod share it, so both skip the same files.
const MENTIONS = /setInterval|setTimeout|node-cron|\bcron\b|croner|node-schedule|toad-scheduler|@nestjs\/schedule/;

/** Whether `text` can hold a schedule the rule recognises. */
export function mentionsSchedule(text: string): boolean {
  return MENTIONS.test(text);
}
