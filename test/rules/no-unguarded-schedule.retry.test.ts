// no-unguarded-schedule: a setTimeout that reruns its own function from a `catch` is a retry of
// the call that failed (on the replica where it failed), not a period; a reschedule on the
// success path of the same function is still the loop's period and is reported.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'billing' } };
const IMPORT = "import { claimPeriod } from 'replica-guard';";

/** A delivery retried with backoff: the timer calls the function again with the next attempt. */
const DELIVERY_RETRY = lines(
  'export async function deliver(hook, body, attempt = 1) {',
  '  try {',
  '    await db.markDelivering(hook.id);',
  '    await http.post(hook.url, body);',
  '  } catch (err) {',
  '    if (attempt < 5) setTimeout(() => deliver(hook, body, attempt + 1), 2 ** attempt * 1000);',
  '  }',
  '}',
);
/** A connect retried by name until it succeeds once. */
const CONNECT_RETRY = lines(
  'async function registerConsumer() {',
  '  try {',
  "    await db.query('INSERT INTO consumers (host) VALUES ($1) ON CONFLICT DO NOTHING', [hostname]);",
  '    await broker.subscribe(onMessage);',
  '  } catch (error) {',
  '    logger.warn(error);',
  '    setTimeout(registerConsumer, 3_000);',
  '  }',
  '}',
  'registerConsumer();',
);
/** A sweep that reschedules on both paths: the success path is its period. */
const SWEEP_BOTH_PATHS = lines(
  'async function sweep() {',
  '  try {',
  "    await db.query('DELETE FROM sessions WHERE expires_at < now()');",
  '    setTimeout(sweep, 60_000);',
  '  } catch (err) {',
  '    setTimeout(sweep, 5_000);',
  '  }',
  '}',
  'sweep();',
);
/** The same loop with the period after the try: the catch's retry comes first in the file. */
const SWEEP_AFTER_TRY = lines(
  'async function sweep() {',
  '  try {',
  "    await db.query('DELETE FROM sessions WHERE expires_at < now()');",
  '  } catch (err) {',
  '    logger.error(err);',
  '    setTimeout(sweep, 5_000);',
  '    return;',
  '  }',
  '  setTimeout(sweep, 60_000);',
  '}',
  'sweep();',
);
/** The connect loop rescheduled in `finally`: on success too, so it is the loop's period. */
const CONNECT_FINALLY = CONNECT_RETRY.replace('  } catch (error) {\n    logger.warn(error);\n', '  } finally {\n');

ruleTester.run('no-unguarded-schedule (retries)', noUnguardedSchedule, {
  valid: [
    { settings, code: DELIVERY_RETRY },
    { settings, code: CONNECT_RETRY },
  ],
  invalid: [
    {
      settings,
      code: SWEEP_BOTH_PATHS,
      errors: [{ messageId: 'unguardedSchedule', line: 4, column: 16, suggestions: [] }],
    },
    {
      settings,
      code: SWEEP_AFTER_TRY,
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 9,
          column: 14,
          suggestions: [
            {
              messageId: 'addClaimPeriod',
              output: `${IMPORT}\n${SWEEP_AFTER_TRY.replace(
                'async function sweep() {\n',
                "async function sweep() {\n  if (!(await claimPeriod('billing:sweep', 60_000))) { setTimeout(sweep, 60_000); return; }\n",
              )}`,
            },
          ],
        },
      ],
    },
    {
      settings,
      code: CONNECT_FINALLY,
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 6,
          column: 16,
          suggestions: [
            {
              messageId: 'addClaimPeriod',
              output: `${IMPORT}\n${CONNECT_FINALLY.replace(
                '  try {\n',
                "  try {\n    if (!(await claimPeriod('billing:register-consumer', 3_000))) return;\n",
              )}`,
            },
          ],
        },
      ],
    },
  ],
});
