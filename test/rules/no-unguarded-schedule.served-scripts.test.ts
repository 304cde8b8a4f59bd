// no-unguarded-schedule on scripts a web server hands to browsers: a file in a `js`, `javascripts`
// or `scripts` folder under `static`, `public`, `assets` or `wwwroot` runs in each open tab, not
// in a server replica, even with no `window`/`document` in view. A folder named like that alone
// (`src/public-api/`, `src/static/` without a script folder) is still server code.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'ops' } };
const POSTING = lines('setInterval(async () => {', "  await fetch('/api/reports', { method: 'POST', body: '{}' });", '}, 60_000);');
const reportedAt = (filename: string) => ({
  ...guardedReport(settings, POSTING, {
    line: 1,
    column: 13,
    guard: "  if (!(await claimPeriod('ops:poll-1', 60_000))) return;",
    after: 1,
    importAfter: 0,
  }),
  filename,
});

ruleTester.run('no-unguarded-schedule: scripts served to browsers', noUnguardedSchedule, {
  valid: [
    { settings, code: POSTING, filename: 'src/static/js/poll.ts' },
    { settings, code: POSTING, filename: 'public/javascripts/poll.js' },
    { settings, code: POSTING, filename: 'web/assets/scripts/poll.js' },
  ],
  invalid: [reportedAt('src/public-api/poll.ts'), reportedAt('src/static/poll.ts'), reportedAt('src/js/poll.ts')],
});
