// no-unguarded-schedule on a bare timer whose work is an arrow doing nothing but call one function of another
// project module (`setInterval(() => pollMailbox(), 15_000)`, `setInterval(() => closeIdleRooms(hub, ttl), ttl)`):
// the same schedule as handing that function by reference, which runs that module's job each period as a
// declared job does — reported, when that module is out of reach and the name says a job over shared items
// (a job's verb, due or waiting items). Twins stay quiet: a call named for this process's own state (a settings
// cache reloaded), a name with no job in it, a method of an imported object, a call handed a Map this file
// keeps in memory, an arrow doing more than the one call. In reach, the module decides
// (projects-schedule-arrow-call.test.ts).
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { lines } from './schedule-suggestion.js';

const settings = { 'replica-guard': { service: 'helpdesk' } };

/** A start-up that arms `timer` after importing `name` from the project's mail module. */
const boot = (name: string, timer: string, extra: string[] = []) =>
  lines(
    `import { ${name} } from './mail/inbox';`,
    "import { hub } from './hub';",
    ...extra,
    'export function startInbox(): void {',
    `  ${timer}`,
    '}',
  );

/** The report at the timer (line 4), whose one suggestion gives `guarded` with replica-guard's import after the last import. */
const reportedAt4 = (guarded: string) => [
  {
    messageId: 'unguardedSchedule' as const,
    line: 4,
    column: 15,
    suggestions: [
      {
        messageId: 'addClaimPeriod' as const,
        output: guarded.replace(
          "import { hub } from './hub';",
          "import { hub } from './hub';\nimport { claimPeriod } from 'replica-guard';",
        ),
      },
    ],
  },
];

ruleTester.run('no-unguarded-schedule: an arrow calling one imported project function', noUnguardedSchedule, {
  valid: [
    // named for this process's settings cache
    { settings, code: boot('reloadSettingsCache', 'setInterval(() => reloadSettingsCache(), 60_000);') },
    // handed a structure this file keeps in memory
    {
      settings,
      code: boot('pollMailbox', 'setInterval(() => pollMailbox(seen), 15_000);', ['const seen = new Map<string, number>();']),
    },
    // a check for a newer release of the program
    { settings, code: boot('checkForNewRelease', 'setInterval(() => checkForNewRelease(hub), 604_800_000);') },
    // a function a call of another module made (its queue claim is out of sight): judged by name
    {
      settings,
      code: lines(
        "import { createDrainer } from './events/drainer';",
        'const { drainEvents } = createDrainer();',
        'setInterval(() => drainEvents(), 10_000);',
      ),
    },
    // out of reach, a name that says no job over shared items (no job verb, no due or waiting items)
    { settings, code: boot('tallyMailboxSizes', 'setInterval(() => tallyMailboxSizes(hub), 60_000);') },
    // a method of an imported object (a Map of another module may keep it in memory)
    { settings, code: boot('inboxIndex', "setInterval(() => inboxIndex.delete('drafts'), 60_000);") },
    // the arrow logs as well: the work of this file, judged by what it is seen to do
    { settings, code: boot('pollMailbox', "setInterval(() => { console.log('poll'); pollMailbox(); }, 15_000);") },
  ],
  invalid: [
    {
      settings,
      code: boot('pollMailbox', 'setInterval(() => pollMailbox(), 15_000);'),
      errors: reportedAt4(
        boot(
          'pollMailbox',
          lines(
            'setInterval(async () => {',
            "    if (!(await claimPeriod('helpdesk:file-4', 15_000))) return;",
            '    return pollMailbox();',
            '  }, 15_000);',
          ),
        ),
      ),
    },
    // handed the hub and the period, in a block
    {
      settings,
      code: boot('closeIdleTickets', 'setInterval(() => { closeIdleTickets(hub, 900_000); }, 900_000);'),
      errors: reportedAt4(
        boot(
          'closeIdleTickets',
          "setInterval(async () => { if (!(await claimPeriod('helpdesk:file-4', 900_000))) return; closeIdleTickets(hub, 900_000); }, 900_000);",
        ),
      ),
    },
  ],
});
