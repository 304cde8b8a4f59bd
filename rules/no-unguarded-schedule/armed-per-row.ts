// A one-off timer armed once per row read from a shared store (analysis/scheduled-work/per-row-timers.ts),
// judged as a declared job: every replica reads the same rows and fires each one. Not when the timer is armed
// inside the work of another schedule of the file that is judged for it: a self-rescheduling loop that reaches
// outside without a shared write of its own is reported at its own timer for arming them (`runDueLoop` ending
// in `setTimeout(runDueLoop, 60_000)`, armsTimerPerStoredRow).
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { workEffects, type EffectsOptions } from '../../analysis/scheduled-work/external-effects.js';
import { armedPerStoredRow, armsTimerPerStoredRow } from '../../analysis/scheduled-work/per-row-timers.js';
import type { ScheduledWork } from '../../analysis/scheduled-work/scheduled-work.js';

/** Whether `work` is a one-off timer armed per stored row that no other schedule of the file answers for. */
export function armedPerRowAlone(
  sourceCode: SourceCode,
  work: ScheduledWork,
  works: readonly ScheduledWork[] | undefined,
  effectsOptions: EffectsOptions,
): boolean {
  const timer = work.schedulerNode;
  if (!work.entry.selfRescheduling || !work.resolved?.fn || !armedPerStoredRow(sourceCode, timer)) return false;
  return !(works ?? []).some((other) => {
    const fn = other !== work && other.entry.selfRescheduling ? other.resolved?.fn : undefined;
    if (!fn || fn.range[0] > timer.range[0] || timer.range[1] > fn.range[1]) return false;
    const effects = workEffects(fn.body, effectsOptions);
    return effects.external && !effects.sharedWrite && armsTimerPerStoredRow(sourceCode, fn.body);
  });
}
