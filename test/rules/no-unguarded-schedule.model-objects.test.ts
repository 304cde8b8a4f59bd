// no-unguarded-schedule on data-access objects a service keeps on its application instance: a
// Fastify plugin's timer calling `await app.payoutsModel.settlePayout(id)` writes the service's
// shared rows — a method of a decorated model, repository or DAO not named for a read, awaited.
// Reads only (`getDuePayouts`, `checkLimits`), a call not awaited, and an instance's helpers that
// are no data-access object (`app.utils.sleep`) leave the bare timer quiet.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'wallet' } };

const plugin = (...body: string[]) =>
  lines(
    "import type { FastifyInstance } from 'fastify';",
    '',
    'export default async function payoutSweep(app: FastifyInstance) {',
    '  setInterval(async () => {',
    '    const due = await app.payoutsModel.getDuePayouts();',
    '    for (const payout of due) {',
    ...body,
    '    }',
    '  }, 60_000);',
    '}',
  );

ruleTester.run('no-unguarded-schedule (data-access objects of the instance)', noUnguardedSchedule, {
  valid: [
    // Reads and a pause only.
    {
      settings,
      code: plugin('      const ok = await app.payoutsModel.checkLimits(payout.id);', '      if (ok) await app.utils.sleep(200);'),
    },
    // Not awaited: an in-memory model's `add` answers at once.
    { settings, code: plugin('      app.payoutsModel.addPending(payout.id);') },
    // The instance's helpers are no data-access object.
    { settings, code: plugin('      await app.helpers.settlePayoutPreview(payout.id);') },
  ],
  invalid: [
    guardedReport(settings, plugin('      await app.payoutsModel.settlePayout(payout.id);'), {
      line: 4,
      column: 15,
      guard: "    if (!(await claimPeriod('wallet:file-4', 60_000))) return;",
      after: 4,
      importAfter: 1,
    }),
    // One link up: `app.models.ledger`.
    guardedReport(settings, plugin('      await app.models.ledger.addEntry(payout.id, payout.amount);'), {
      line: 4,
      column: 15,
      guard: "    if (!(await claimPeriod('wallet:file-4', 60_000))) return;",
      after: 4,
      importAfter: 1,
    }),
  ],
});
