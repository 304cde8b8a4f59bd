// no-unguarded-schedule on a timer that POSTs this process's liveness to a backend: the address
// (written in the call, or in a `const` of the function) ends in a heartbeat path (`…/heartbeat`,
// `/keep-alive`). Each replica's own report: quiet. The twin posting to another path (an alert
// every replica would send) is reported.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'relay' } };

/** A runner that reports to `${origin}/runners/${id}/<path>` every 15 s. */
const reporter = (path: string) =>
  lines(
    'export function startReporting(origin: string, id: string) {',
    '  async function announce() {',
    `    const target = \`\${origin}/runners/\${encodeURIComponent(id)}/${path}\`;`,
    "    await fetch(target, { method: 'POST', body: JSON.stringify({ at: Date.now() }) });",
    '  }',
    '  setInterval(() => void announce(), 15_000);',
    '}',
  );

ruleTester.run('no-unguarded-schedule: a POST of this process’s heartbeat', noUnguardedSchedule, {
  valid: [
    { settings, code: reporter('heartbeat') },
    { settings, code: reporter('keep-alive?v=2') },
    {
      settings,
      code: lines(
        'setInterval(async () => {',
        "  await fetch(`${process.env.HUB}/nodes/${process.pid}/liveness`, { method: 'PUT' });",
        '}, 10_000);',
      ),
    },
  ],
  invalid: [
    // The work is a function of the enclosing one (it reads `origin` and `id`): reported with no suggestion.
    { settings, code: reporter('alerts'), errors: [{ messageId: 'unguardedSchedule', line: 6, column: 15 }] },
  ],
});
