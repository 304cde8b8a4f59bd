// no-unguarded-schedule on a cron job that fills an in-memory holder by its name: a method whose verb
// loads or fills (`load…`, `populate`, `prime`) called on a receiver named for a cache or a tracker
// (`pageCache.loadEverything()`): each process fills its own copy from what it reads — quiet. The
// twins: the same fill beside a shared write, or the verb on a receiver named for no holder, are reported.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'kitchen' } };

/** The one suggestion: the guard imported after the imports and put first in the job's function (line 6). */
const guarded = (code: string) => {
  const out = code.split('\n');
  out.splice(6, 0, "    if (!(await claimPeriod('kitchen:file-6', { cron: '*/5 * * * *' }))) return;");
  out.splice(4, 0, "import { claimPeriod } from 'replica-guard';");
  return [{ messageId: 'addClaimPeriod' as const, output: lines(...out) }];
};
/** Reported at the job's function (line 6, column 30) with the one suggestion. */
const reported = (code: string) => ({
  settings,
  code,
  errors: [{ messageId: 'unguardedSchedule' as const, line: 6, column: 30, suggestions: guarded(code) }],
});

/** A job every 5 minutes built started (`start` = true), its work `body`. */
const refill = (...body: string[]) =>
  lines(
    "import { CronJob } from 'cron';",
    "import menuCache from './menu-cache.js';",
    "import { menuRows } from './menu-rows.js';",
    "import { db } from './db.js';",
    'export function startRefills() {',
    "  new CronJob('*/5 * * * *', async function () {",
    ...body,
    '  }, null, true);',
    '}',
  );

ruleTester.run('no-unguarded-schedule: an in-memory holder filled by its name', noUnguardedSchedule, {
  valid: [
    { settings, code: refill('    await menuCache.loadEverything();') },
    { settings, code: refill('    try {', '      await menuCache.populate();', '    } catch (e) {', '      console.error(e);', '    }') },
  ],
  invalid: [
    reported(refill('    await menuCache.loadEverything();', "    await db.query('DELETE FROM menu_drafts WHERE stale');")),
    reported(refill('    await menuRows.populate();')),
  ],
});
