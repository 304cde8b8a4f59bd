// no-unguarded-schedule in a repository's `scripts/` folder: a script there is run by hand unless
// its name says a process meant to keep running — and so does a folder between `scripts/` and the
// file (`scripts/workers/lib/poller.ts`: the workers' own code, deployed as long-running processes,
// stays judged), and so does a script named for a dispatcher (`scripts/start-dispatcher.ts`). A folder of other words (`scripts/tools/`) keeps its scripts hand-run, whether its
// interval is armed at the top level or inside the function the script runs.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'relay' } };
const IMPORT = "import { claimPeriod } from 'replica-guard';";

/** A poller re-arming itself every five seconds to mark due reminders sent. */
const POLLER = lines(
  "import { db } from './db';",
  'async function pollDue() {',
  '  await db.query("UPDATE reminders SET sent_at = now() WHERE due_at < now() AND sent_at IS NULL");',
  '  setTimeout(pollDue, 5000);',
  '}',
  'pollDue();',
);
const reportedIn = (filename: string, job: string) => ({
  settings,
  code: POLLER,
  filename,
  errors: [
    {
      messageId: 'unguardedSchedule' as const,
      line: 4,
      column: 14,
      suggestions: [
        {
          messageId: 'addClaimPeriod' as const,
          output: POLLER.replace("'./db';", `'./db';\n${IMPORT}`).replace(
            'async function pollDue() {',
            `async function pollDue() {\n  if (!(await claimPeriod('relay:${job}', 5000))) { setTimeout(pollDue, 5000); return; }`,
          ),
        },
      ],
    },
  ],
});

/** A script marking due reminders sent every three seconds, the interval armed by `arm`. */
const relay = (...arm: string[]) =>
  lines(
    "import { db } from './db';",
    'async function markDue() {',
    '  await db.query("UPDATE reminders SET sent_at = now() WHERE due_at < now() AND sent_at IS NULL");',
    '}',
    ...arm,
  );
const TOP_LEVEL = relay('console.info("relay up");', 'const relayTimer = setInterval(markDue, 3000);');

ruleTester.run('no-unguarded-schedule: folders under the scripts folder', noUnguardedSchedule, {
  valid: [
    { settings, code: POLLER, filename: 'scripts/tools/poller.ts' },
    { settings, code: POLLER, filename: 'scripts/seed/lib/poller.ts' },
    // The interval armed at the script's top level, or inside a function it runs once (a watch around a backfill): run by hand.
    { settings, code: TOP_LEVEL, filename: 'scripts/tools/relay.ts' },
    {
      settings,
      code: relay(
        'async function main() {',
        '  const watch = setInterval(markDue, 3000);',
        '  await backfill();',
        '  clearInterval(watch);',
        '}',
        'main();',
      ),
      filename: 'scripts/tools/relay.ts',
    },
    // A verb, not the standing process it names: `dispatch-backlog.ts` is a run by hand.
    { settings, code: POLLER, filename: 'scripts/dispatch-backlog.ts' },
  ],
  invalid: [
    reportedIn('scripts/workers/lib/poller.ts', 'poll-due'),
    reportedIn('scripts/jobs/poller.ts', 'poll-due'),
    // A dispatcher started as its own process beside the service (`node scripts/start-dispatcher.js`): it keeps running.
    reportedIn('scripts/start-dispatcher.ts', 'poll-due'),
    reportedIn('scripts/ReminderDispatcher.ts', 'poll-due'),
  ],
});
