// no-unguarded-schedule on a bare timer beside a callback its function was handed: a parameter
// called only while the function sets up (`override(base)` for options) or by another callback (a
// message handler) is not a job the timer runs, so the timer is judged as a bare timer (unknown
// work stays quiet). The same function whose timer runs the handler is a job runner, reported.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'ops' } };

/** A consumer that builds its options (through `override`), subscribes, and sets the timer `timer`. */
const consumer = (...timer: string[]) =>
  lines(
    'export class Consumer {',
    '  async consume(subject, handler, override) {',
    '    const options = override ? override(baseOptions()) : baseOptions();',
    '    const sub = await this.js.pullSubscribe(subject, options);',
    ...timer.map((t) => `    ${t}`),
    '  }',
    '}',
  );

ruleTester.run('no-unguarded-schedule: a timer beside callbacks of its set-up', noUnguardedSchedule, {
  valid: [
    // the timer pulls the next batch; the handler runs per message, the override once
    {
      settings,
      code: consumer(
        'setInterval(() => sub.pull({ batch: 20 }), 5000);',
        '(async () => {',
        '  for await (const message of sub) await handler(message);',
        '})();',
      ),
    },
    // only the set-up calls a parameter
    { settings, code: consumer('setInterval(() => sub.pull({ batch: 20 }), 5000);') },
  ],
  invalid: [
    // the timer's work runs the handler: a job runner, whose work is unknown and so reported
    {
      settings,
      code: consumer(
        'setInterval(async () => {',
        '  for (const message of await sub.fetch({ batch: 20 })) await handler(message);',
        '}, 5000);',
      ),
      errors: [{ messageId: 'unguardedSchedule' as const, line: 5, column: 17, suggestions: [] }],
    },
  ],
});
