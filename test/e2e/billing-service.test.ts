// The example service at 3 replicas against a real redis-server, before and after the codemod.
// Before: every replica sends every reminder and issues every invoice (≈3 per period). After
// `replica-codemod`: exactly one per period, while the perReplica metrics flush still runs on
// all three.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, expect, inject, test } from 'vitest';
import { copyExample, readSideEffects, repoRoot, startReplica, stopReplica, type Replica, type SideEffect } from './example-copy.js';

const REMINDER_SWEEP_MS = 300;
const RUN_MS = 3500;
const dir = copyExample();
afterAll(() => rmSync(dirname(dir), { recursive: true, force: true }));

async function runReplicas(log: string): Promise<SideEffect[]> {
  const replicas: Replica[] = ['a', 'b', 'c'].map((id) =>
    startReplica(dir, {
      REDIS_URL: inject('redisUrl'),
      SIDE_EFFECT_LOG: log,
      REPLICA_ID: id,
      REMINDER_SWEEP_MS: String(REMINDER_SWEEP_MS),
    }),
  );
  try {
    await Promise.all(replicas.map((r) => r.ready));
    // Count only the window in which all three run.
    const from = Date.now();
    await new Promise((r) => setTimeout(r, RUN_MS));
    const to = Date.now();
    return readSideEffects(log).filter((e) => e.at >= from && e.at < to);
  } finally {
    await Promise.all(replicas.map(stopReplica));
  }
}

const cronSlot = (e: SideEffect): number => Math.round(e.at / 1000);

/** Counts per key. */
function countBy<T>(items: readonly T[], key: (item: T) => number | string): Map<number | string, number> {
  const counts = new Map<number | string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

/**
 * Whether the side effects fit at most one per period. A side effect is recorded a little after
 * its claim (a Redis round trip, event-loop lag on a busy machine), and a cron fire may come a few
 * ms early, so each may belong to any period that [at - lateMs, at + earlyMs] touches: assign them
 * greedily in time order, each to the earliest such period after the previous one.
 */
function atMostOnePerPeriod(effects: readonly SideEffect[], periodMs: number, lateMs: number, earlyMs = 0): boolean {
  let last = -Infinity;
  for (const effect of [...effects].sort((a, b) => a.at - b.at)) {
    const first = Math.floor((effect.at - lateMs) / periodMs);
    const latest = Math.floor((effect.at + earlyMs) / periodMs);
    const chosen = Math.max(first, last + 1);
    if (chosen > latest) return false;
    last = chosen;
  }
  return true;
}

test('3 replicas repeat every side effect before the codemod and do each once per period after it', async () => {
  const before = await runReplicas(join(dir, 'before.log'));
  const beforeInvoices = before.filter((e) => e.kind === 'invoice');
  const beforeEmails = before.filter((e) => e.kind === 'email');
  const invoiceSlots = countBy(beforeInvoices, cronSlot);
  // Every second, every replica issues the invoice: ≈3 per slot.
  expect(invoiceSlots.size).toBeGreaterThanOrEqual(3);
  expect(beforeInvoices.length / invoiceSlots.size).toBeGreaterThan(2);
  expect(new Set(beforeEmails.map((e) => e.replica)).size).toBe(3);
  // Well above the most that one-per-period allows (checked after the codemod).
  expect(beforeEmails.length).toBeGreaterThan(1.5 * (Math.ceil(RUN_MS / REMINDER_SWEEP_MS) + 1));
  expect(atMostOnePerPeriod(beforeEmails, REMINDER_SWEEP_MS, 150)).toBe(false);
  expect(atMostOnePerPeriod(beforeInvoices, 1000, 600, 200)).toBe(false);

  const codemod = spawnSync(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), join(repoRoot, 'codemods/engine/cli.ts'), '--transform', 'guard-schedules', 'src'],
    {
      cwd: dir,
      encoding: 'utf8',
    },
  );
  expect(codemod.stderr).toBe('');
  expect(codemod.status).toBe(0);
  expect(codemod.stdout).toMatch(/3 changed, 2 findings fixed, 0 manual follow-ups/);

  const after = await runReplicas(join(dir, 'after.log'));
  const afterInvoices = after.filter((e) => e.kind === 'invoice');
  const afterEmails = after.filter((e) => e.kind === 'email');
  // One invoice per second.
  expect(atMostOnePerPeriod(afterInvoices, 1000, 600, 200)).toBe(true);
  expect(afterInvoices.length).toBeGreaterThanOrEqual(Math.floor(RUN_MS / 1000) - 1);
  // At most one reminder email per sweep period, whichever replica wins it.
  expect(atMostOnePerPeriod(afterEmails, REMINDER_SWEEP_MS, 150)).toBe(true);
  expect(afterEmails.length).toBeLessThanOrEqual(Math.ceil(RUN_MS / REMINDER_SWEEP_MS) + 1);
  // Most periods are swept by some replica (a loaded machine may delay a tick past its period).
  expect(afterEmails.length).toBeGreaterThanOrEqual(Math.floor(RUN_MS / REMINDER_SWEEP_MS / 2));
  // The per-replica metrics flush is untouched: still on all three.
  expect(new Set(after.filter((e) => e.kind === 'metrics').map((e) => e.replica)).size).toBe(3);
});
