// no-unguarded-schedule on scripts a web server hands to browsers: a file in a `js`, `javascripts`,
// `scripts` or `app` folder under `static`, `public`, `assets` or `wwwroot` runs in each open tab, not
// in a server replica, even with no `window`/`document` in view. A folder named like that alone
// (`src/public-api/`, `src/static/` without a script folder) is still server code. Nor is a copy of a
// scheduler library in a folder named for it (`libs/nodeCron/`, `vendor/node-schedule/`): its engine
// runs its users' jobs, judged where they use it; a one-word folder (`cron/`) is the project's own.
// Nor is a file named for development only (`seed.dev.ts`, `server.development.js`).
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
    // a file named for development only, as `.test.` names a test: started by hand, in no replica
    { settings, code: POSTING, filename: 'scripts/poll.dev.ts' },
    { settings, code: POSTING, filename: 'src/poll.development.js' },
    // the served single-page app's folder
    { settings, code: POSTING, filename: 'src/public/app/services/poll.ts' },
    // a browser bundle's sources in a `ui` folder
    { settings, code: POSTING, filename: 'modules/cms/ui/apos/utils/poll.js' },
    // a scheduler library copied into the project
    { settings, code: POSTING, filename: 'server/libs/nodeCron/poll.js' },
    { settings, code: POSTING, filename: 'vendor/node-schedule/lib/poll.js' },
    { settings, code: POSTING, filename: 'src/third_party/toad_scheduler/poll.ts' },
  ],
  invalid: [
    // a folder named `dev` alone, or `dev` inside a word, says nothing of the file
    reportedAt('src/dev/poll.ts'),
    reportedAt('src/devices/poll.ts'),
    reportedAt('src/public-api/poll.ts'),
    reportedAt('src/static/poll.ts'),
    reportedAt('src/js/poll.ts'),
    reportedAt('src/app/services/poll.ts'),
    reportedAt('src/public/application/poll.ts'),
    reportedAt('src/guide/poll.ts'),
    // the project's own folders: one word (`cron/`), or a library's name inside a longer one
    reportedAt('server/libs/poll.js'),
    reportedAt('src/cron/poll.ts'),
    reportedAt('src/node-cron-jobs/poll.ts'),
  ],
});
