// A scheduler library copied into the project (`server/libs/nodeCron/scheduler.js`,
// `vendor/node-schedule/lib/Invocation.js`): its timers are the library's own engine, which matches
// the clock and hands each fire to the job its user registered. The schedule worth judging is
// where the project uses the library; its internals run no job of their own.
import { SCHEDULER_MODULES } from '../../src/knowledge/schedulers.js';

const folderKey = (name: string): string => name.toLowerCase().replace(/[-_.]/g, '');

/** Folder names of the libraries whose name is two words or more (`node-cron` → `nodecron`): one word (`cron`, `bree`) names an app's own folder as often. */
const LIBRARY_FOLDERS: ReadonlySet<string> = new Set(
  SCHEDULER_MODULES.filter((m) => !m.startsWith('@') && !m.includes('/') && m.includes('-')).map(folderKey),
);

/** Whether the file lies in a folder named for a scheduler library (`nodeCron/`, `node-schedule/`, `toad_scheduler/`). */
export function isVendoredScheduler(filename: string): boolean {
  return filename
    .split(/[\\/]/)
    .slice(0, -1)
    .some((folder) => LIBRARY_FOLDERS.has(folderKey(folder)));
}
