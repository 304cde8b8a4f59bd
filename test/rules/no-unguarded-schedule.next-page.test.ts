// no-unguarded-schedule on a `setTimeout` that runs the function it sits in again with one of its
// parameters advanced (`expireTrials(skip + limit, limit)`) after that function left early once a
// page came back empty: the next page of one run, started where the run started, not a period.
// Without the early exit, the same timer loops forever and is a schedule.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'billing' } };

/** `expireTrials(skip, limit)` reading one page, expiring it, and timing the next page; `exit` is its early return, if any. */
const pages = (exit: string[], next: string) =>
  lines(
    'async function expireTrials(skip: number, limit: number) {',
    '  const trials = await Trial.find({ ended: false }, {}, { skip, limit });',
    ...exit,
    '  for (const trial of trials) {',
    "    await db.query('UPDATE trials SET ended = true WHERE id = $1', [trial.id]);",
    '  }',
    '  setTimeout(() => {',
    `    ${next};`,
    '  }, 1);',
    '}',
  );

const EMPTY_PAGE_EXIT = ['  if (trials.length === 0) return;'];

ruleTester.run('no-unguarded-schedule: the next page of one run', noUnguardedSchedule, {
  valid: [
    { settings, code: pages(EMPTY_PAGE_EXIT, 'expireTrials(skip + limit, limit)') },
    { settings, code: pages(['  if (!trials.length) {', '    return;', '  }'], 'expireTrials(limit + skip, limit)') },
  ],
  invalid: [
    // no early exit: the timer runs it again forever
    {
      settings,
      code: pages([], 'expireTrials(skip + limit, limit)'),
      errors: [{ messageId: 'unguardedSchedule' as const, line: 6, column: 14, suggestions: [] }],
    },
    // the same page again, not the next one
    {
      settings,
      code: pages(EMPTY_PAGE_EXIT, 'expireTrials(skip, limit)'),
      errors: [{ messageId: 'unguardedSchedule' as const, line: 7, column: 14, suggestions: [] }],
    },
  ],
});
