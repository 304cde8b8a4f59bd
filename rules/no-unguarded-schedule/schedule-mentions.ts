// A cheap text test run before any AST work: whether a file can schedule work the way
// `no-unguarded-schedule` recognises (a timer global, or a scheduler module or decorator by
// name). The rule and the `guard-schedules` codemod share it, so both skip the same files.
// The names come from the scheduler catalogue (src/knowledge/schedulers.ts).
//
// In two stages, cheaper than one scan for all the words: one for the timer names and a few
// short stems that most module names contain (a timer name settles it), then the module names
// themselves, only in text that has a stem.
import { SCHEDULERS } from '../../src/knowledge/schedulers.js';
import { wordPattern } from '../../analysis/source/word-pattern.js';

/** Globals (`setInterval`): a use from `timers` or `timers/promises` names them too. */
const TIMER_NAMES = [...new Set(SCHEDULERS.filter((entry) => entry.modules.includes(null)).map((entry) => entry.path[0]!))];
/** Modules a scheduler is imported from, other than those of the timers. */
const MODULE_NAMES = [
  ...new Set(
    SCHEDULERS.filter((entry) => !TIMER_NAMES.includes(entry.path[0]!)).flatMap((entry) =>
      entry.modules.filter((m): m is string => m !== null),
    ),
  ),
];
/** Short words most module names contain; a module holding none is a stem of its own. */
const MODULE_STEMS = ['cron', 'schedule'];
const STEMS = wordPattern([
  ...TIMER_NAMES,
  ...MODULE_STEMS,
  ...MODULE_NAMES.filter((name) => !MODULE_STEMS.some((stem) => name.includes(stem))),
]);
const TIMERS = wordPattern(TIMER_NAMES);
const MODULES = wordPattern(MODULE_NAMES);

/** Whether `text` can hold a schedule the rule recognises. */
export function mentionsSchedule(text: string): boolean {
  const stem = STEMS.exec(text)?.[0];
  if (stem === undefined) return false;
  return TIMER_NAMES.includes(stem) || TIMERS.test(text) || MODULES.test(text);
}
