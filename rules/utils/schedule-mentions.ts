// A cheap text test run before any AST work: whether a file can schedule work the way
// `no-unguarded-schedule` recognises (a timer global, or a scheduler module or decorator by
// name). The rule and the `guard-schedules` codemod share it, so both skip the same files.
//
// In two stages, cheaper than one scan for all eight words: one for the four stems (a timer name
// settles it), then, only in text that has `cron` or `schedule` in it, the module names.
const STEMS = /setInterval|setTimeout|cron|schedule/;
const TIMERS = /setInterval|setTimeout/;
const MODULES = /node-cron|\bcron\b|croner|node-schedule|toad-scheduler|@nestjs\/schedule/;

/** Whether `text` can hold a schedule the rule recognises. */
export function mentionsSchedule(text: string): boolean {
  const stem = STEMS.exec(text)?.[0];
  if (stem === undefined) return false;
  return stem.startsWith('set') || TIMERS.test(text) || MODULES.test(text);
}
