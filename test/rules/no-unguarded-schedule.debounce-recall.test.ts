// no-unguarded-schedule on a per-event debounce: a handler arms a timer only when a parameter holds
// (`if (isTyping) { … setTimeout(…) }`) and the timer calls the handler back with `false` for it,
// so the call clears what the event set and arms nothing: one timer per event, not a loop. Reported
// when the call back passes the parameter through (or `true`): that re-arms the timer forever.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'index' } };

/** A bridge whose typing handler re-calls itself from its timer with `again` as the flag. */
const bridge = (again: string) =>
  lines(
    "import { chat, log } from './chat';",
    'export class Bridge {',
    '  private timers: Record<string, NodeJS.Timeout> = {};',
    '  async onTyping(room: string, user: string, isTyping: boolean) {',
    '    try {',
    "      await chat.query('UPDATE rooms SET typing = $1 WHERE id = $2', [isTyping, room]);",
    '      const key = `${room}:${user}`;',
    '      if (isTyping) {',
    '        clearTimeout(this.timers[key]);',
    '        this.timers[key] = setTimeout(async () => {',
    `          this.onTyping(room, user, ${again}).catch(() => log.warn('typing'));`,
    '          delete this.timers[key];',
    '        }, 30_000);',
    '      }',
    '    } catch (err) {',
    "      log.warn('typing', err);",
    '    }',
    '  }',
    '}',
  );

ruleTester.run('no-unguarded-schedule (debounce call back)', noUnguardedSchedule, {
  valid: [{ settings, code: bridge('false') }],
  invalid: [
    {
      settings,
      code: bridge('true'),
      errors: [{ messageId: 'unguardedSchedule', line: 10, column: 39 }],
    },
  ],
});
