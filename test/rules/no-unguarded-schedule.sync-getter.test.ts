// no-unguarded-schedule on a declared job whose work stays on this host but for one call of another
// project module: a function named for a read (`getBuildTag()`), its answer kept as it is — not
// awaited, not chained — a synchronous getter of what this process holds: quiet, with the rest of the
// work (a GET into a module object). The twins: the same getter awaited (it may read a shared store),
// or named for more than a read (`getOrCreate…`), are reported.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');

/** A nightly check of the newest published tag against `current` (a statement binding `current`). */
const tagCheck = (current: string) =>
  lines(
    "import schedule from 'node-schedule';",
    "import { getBuildTag, getOrCreateBuildTag } from '@/lib/build-info.js';",
    "export const newer = { seen: '', behind: false };",
    'export async function compareTags() {',
    "  const res = await fetch('https://registry.example.org/widgets/tags');",
    '  const tags = await res.json();',
    `  ${current}`,
    '  newer.seen = tags[0];',
    '  newer.behind = tags[0] !== current;',
    '}',
    "export const startTagCheck = () => schedule.scheduleJob('30 4 * * *', async () => compareTags());",
  );

const settings = { 'replica-guard': { service: 'widgets' } };

/** Reported at the work handed to the job (line 11); the suggestion guards `compareTags` itself. */
const reported = (code: string) => {
  const out = code.split('\n');
  out.splice(4, 0, "  if (!(await claimPeriod('widgets:compare-tags', { cron: '30 4 * * *' }))) return;");
  out.splice(2, 0, "import { claimPeriod } from 'replica-guard';");
  const suggestions = [{ messageId: 'addClaimPeriod' as const, output: lines(...out) }];
  return { settings, code, errors: [{ messageId: 'unguardedSchedule' as const, line: 11, column: 71, suggestions }] };
};

ruleTester.run('no-unguarded-schedule: a synchronous getter of another project module', noUnguardedSchedule, {
  valid: [
    { settings, code: tagCheck('const current = getBuildTag();') },
    { settings, code: tagCheck("const current = getBuildTag('short');") },
  ],
  invalid: [reported(tagCheck('const current = await getBuildTag();')), reported(tagCheck('const current = getOrCreateBuildTag();'))],
});
