// no-unguarded-schedule on a one-shot timer set at start-up minutes out: `setTimeout(…, 5 * 60_000)`
// in a top-level set-up function (or the module itself) runs its work once more after every start
// of every replica — reported as its own finding beside the interval that repeats the same work.
// A settling tick (two seconds), a timer in a request handler (`onUpload(req, res)`: one per upload),
// and a one-shot whose work only logs stay quiet. A handle kept for shutdown (`kickoff = setTimeout(…)`) changes nothing.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'perks' } };

/** A tier task: a first run after `firstDelay`, then hourly; the run expires each member's perk points. */
const tierTask = (firstDelay: string) =>
  lines(
    "import { db } from '../db';",
    'export default function initTierTask() {',
    '  setTimeout(async () => {',
    '    await expirePerks();',
    `  }, ${firstDelay});`,
    '  setInterval(async () => {',
    '    await expirePerks();',
    '  }, 60 * 60_000);',
    '}',
    'async function expirePerks() {',
    "  await db.query('UPDATE members SET perk_points = 0 WHERE perks_expire_at < now()');",
    '}',
  );
/** The hourly interval's suggestion: the guard first in `expirePerks`. */
const withGuard = (code: string) =>
  code
    .replace("'../db';", "'../db';\nimport { claimPeriod } from 'replica-guard';")
    .replace(
      'async function expirePerks() {\n',
      "async function expirePerks() {\n  if (!(await claimPeriod('perks:expire-perks', 60 * 60_000))) return;\n",
    );
const error = (line: number, column: number, output: string) => ({
  messageId: 'unguardedSchedule' as const,
  line,
  column,
  suggestions: [{ messageId: 'addClaimPeriod' as const, output }],
});
/** The one-shot's finding: no suggestion (its work is the interval's too; the codemod lists it as manual). */
const manual = (line: number, column: number) => ({ messageId: 'unguardedSchedule' as const, line, column, suggestions: [] });
const FIVE_MINUTES = tierTask('1000 * 60 * 5');

/** A cleanup a module arms itself, `FIRST_SWEEP` after it is loaded. */
const moduleSweep = (work: string) =>
  lines("import { db } from './db';", 'const FIRST_SWEEP = 10 * 60_000;', 'setTimeout(async () => {', `  ${work}`, '}, FIRST_SWEEP);');

const uploadHandler = lines(
  "import { db } from './db';",
  'export function onUpload(req: Request, res: Response) {',
  '  const id = req.body.id;',
  '  setTimeout(async () => {',
  "    await db.query('DELETE FROM uploads WHERE id = $1 AND claimed = false', [id]);",
  '  }, 10 * 60_000);',
  '  res.end();',
  '}',
);

/** The module sweep with its timer's handle kept for shutdown (`firstSweep = setTimeout(…)`), in `holder`. */
const keptSweep = (holder: string, work: string) =>
  lines(
    "import { db } from './db';",
    'let firstSweep: ReturnType<typeof setTimeout> | undefined;',
    `${holder} {`,
    '  firstSweep = setTimeout(async () => {',
    `    ${work}`,
    '  }, 10 * 60_000);',
    '}',
    'export function stopSweeps() {',
    '  if (firstSweep) clearTimeout(firstSweep);',
    '}',
  );
const SESSION_PURGE = "await db.query('DELETE FROM sessions WHERE expires_at < now()');";

ruleTester.run('no-unguarded-schedule: a delayed run at start-up', noUnguardedSchedule, {
  valid: [
    // A settling tick: only the hourly interval is reported.
    { settings, code: moduleSweep("console.info('warm');") },
    { settings, code: uploadHandler },
    // The handle kept, in a handler of one request: one per request, not per start.
    { settings, code: keptSweep('export function onLogout(req: Request, res: Response)', SESSION_PURGE) },
    // The handle kept, the work only logs.
    { settings, code: keptSweep('export function startSweeps()', "console.info('warm');") },
  ],
  invalid: [
    {
      settings,
      code: FIVE_MINUTES,
      errors: [manual(3, 14), error(6, 15, withGuard(FIVE_MINUTES))],
    },
    {
      settings,
      code: tierTask('2000'),
      errors: [error(6, 15, withGuard(tierTask('2000')))],
    },
    {
      settings,
      code: moduleSweep("await db.query('DELETE FROM sessions WHERE expires_at < now()');"),
      errors: [manual(3, 12)],
    },
    // Its handle kept so that shutdown can clear it: still a run minutes after each start.
    { settings, code: keptSweep('export function startSweeps()', SESSION_PURGE), errors: [manual(4, 27)] },
  ],
});
