// Schedulers a web framework takes as a plugin object: `app.use(cron({ name, pattern, run }))`.
// Every replica serving the app installs the plugin, so each one runs the job. Plain data, part of
// the scheduler catalogue (schedulers.ts).
import type { SchedulerEntry } from './schedulers.js';

/** @elysiajs/cron: `cron({ name, pattern, run, timezone })`, its default export or the named `cron`. */
function elysiaCronEntry(path: readonly string[]): SchedulerEntry {
  return {
    id: 'elysia.cron',
    modules: ['@elysiajs/cron'],
    path,
    kind: 'call',
    work: [{ kind: 'argument', argument: 0, option: 'run' }],
    schedule: [{ kind: 'cron', argument: 0, option: 'pattern' }],
    timeZone: { argument: 0, option: 'timezone' },
    nameArgument: { argument: 0, option: 'name' },
  };
}

export const PLUGIN_SCHEDULERS: readonly SchedulerEntry[] = [elysiaCronEntry([]), elysiaCronEntry(['cron'])];
