// no-unguarded-schedule on a tick that first keeps tallies in memory (`stats.runs += 1;`, the time of
// the tick) and then takes a Redis `SET key NX PX` lock, leaving when the reply is not `'OK'`: the lock
// is the gate, the tallies before it are this process's own. Quiet; the twins that set the key without
// `NX` (any replica's write wins) or write the shared rows before the lock are reported.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'atlas' } };

/** A coupon sweep whose tick tallies, then runs `lock` and `gate`, then deletes expired coupons. */
const couponSweep = (lock = "'NX'", before: string[] = []) =>
  lines(
    "import { cache } from './cache';",
    "import { Coupon } from './models';",
    'const sweepStats = { runs: 0, skipped: 0, lastRunAt: null as string | null };',
    'async function sweepCoupons(): Promise<void> {',
    '  sweepStats.runs += 1;',
    '  sweepStats.lastRunAt = new Date().toISOString();',
    ...before,
    '  const token = `${process.pid}:${Date.now()}`;',
    `  const reply = await cache.set('coupons:sweep', token, 'PX', 30_000, ${lock});`,
    "  if (reply !== 'OK') {",
    '    sweepStats.skipped += 1;',
    '    return;',
    '  }',
    '  await Coupon.deleteMany({ expiresAt: { $lt: new Date() } });',
    '}',
    'export function startCouponSweep(): NodeJS.Timeout {',
    '  return setInterval(() => {',
    '    void sweepCoupons();',
    '  }, 10_000);',
    '}',
  );

const at = (code: string) => code.split('\n').findIndex((l) => l.includes('setInterval(')) + 1;
/** The report at the timer's arrow, the guard going first in `sweepCoupons`. */
const sweepReport = (code: string) =>
  guardedReport(settings, code, {
    line: at(code),
    column: 22,
    guard: "  if (!(await claimPeriod('atlas:sweep-coupons', 10_000))) return;",
    after: 4,
    importAfter: 2,
  });

ruleTester.run('no-unguarded-schedule (tallied leases)', noUnguardedSchedule, {
  valid: [
    // Tallies, then the lock; the reply tested with `!==` (also written the other way round).
    { settings, code: couponSweep() },
    { settings, code: couponSweep().replace("reply !== 'OK'", "'OK' != reply") },
  ],
  invalid: [
    // `XX` sets only an existing key: no lock, every replica sweeps.
    sweepReport(couponSweep("'XX'")),
    // A shared write before the lock runs on every replica.
    sweepReport(couponSweep("'NX'", ['  await Coupon.updateMany({ used: false }, { $set: { checkedAt: new Date() } });'])),
  ],
});
