// require-atomic-claim across the files of a project (test/rules/projects/claim-*): the lock or
// claim that makes a worker's read safe is taken by a function of another module — a helper
// wrapping the work in a lease, an injected service's method that claims a turn — and is judged
// by what that function does; a helper that takes no lock leaves the read reported. Linted
// through ESLint's Node API, plugin from source.
import { describe, expect, test } from 'vitest';
import { lintProjectFile } from './lint-project.js';

describe('require-atomic-claim across files', () => {
  test('a read under a lease or a claim taken in another module is quiet; the one after a helper that takes no lock is reported', async () => {
    // sweeps.ts: expireTrials runs inside a helper that wraps runExclusive (lib/lease.ts),
    // Reminders.sendDue begins with an injected service's claimOnce (lib/turns.ts), runPending
    // claims each row with a conditional updateMany in lib/job-store.ts before marking it; the
    // helpers closeAbandoned and retryFailed call first take no lock and claim nothing.
    expect(await lintProjectFile('claim-guard-in-helper', 'src/sweeps.ts', ['require-atomic-claim'])).toEqual([
      'replica-guard/require-atomic-claim src/sweeps.ts:40:35 nonAtomicClaim',
      'replica-guard/require-atomic-claim src/sweeps.ts:59:33 nonAtomicClaim',
    ]);
  });

  test('a lock taken by a project helper built on Redis SET NX is a lock; a plain SET is not', async () => {
    // webhooks.ts: onTransferPaid reads and settles under lib/mutex.ts whileLocked (SET … NX PX in a
    // closure of it); onTransferRetried under whileNoted, whose SET has no NX.
    expect(await lintProjectFile('claim-guard-in-helper', 'src/webhooks.ts', ['require-atomic-claim'])).toEqual([
      'replica-guard/require-atomic-claim src/webhooks.ts:20:40 nonAtomicClaim',
    ]);
  });

  test("a row handed to another module's function that marks it by its key is reported; one that claims it first, or only notes it, is not", async () => {
    // post-room.ts: postQueued hands each letter to letters/deliver.ts deliverLetter (an update by
    // id, no re-check); postClaimed to deliverClaimed (a conditional updateMany whose count decides);
    // noteQueued to noteLetter (a row of another table). PostRoom.run reads through a store method,
    // whose filter this file does not show: no pending read here.
    expect(await lintProjectFile('claim-handed-elsewhere', 'src/post-room.ts', ['require-atomic-claim'])).toEqual([
      'replica-guard/require-atomic-claim src/post-room.ts:6:35 nonAtomicClaim',
    ]);
  });
});
