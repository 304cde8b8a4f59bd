// A leader-election event and a lease: both run the reindex on one replica.
import { EventEmitter } from 'node:events';
import { runExclusive } from 'replica-guard';
import { startReindex } from '../jobs';

export function onElection(elector: EventEmitter): void {
  elector.on('elected', () => {
    startReindex();
  });
}

export function onLeadership(elector: EventEmitter): void {
  elector.once('leadership-acquired', startReindex);
}

export async function reindexUnderLease(): Promise<void> {
  await runExclusive('reindex-leader', 30_000, async () => {
    startReindex();
  });
}
