import { scheduleJob } from 'node-schedule';
import { compactRuns } from './compact.js';
import { runVolumeBackup } from './run.js';

// One imported call, whose effects (an upload, a row, a notification) live in run.ts.
export function scheduleVolumeBackup(volumeId: string, cron: string): void {
  scheduleJob(volumeId, cron, async () => {
    await runVolumeBackup(volumeId);
  });
}

// One imported call that takes a lock across replicas there.
export function scheduleCompaction(): void {
  scheduleJob('compact-backup-runs', '0 4 * * *', async () => {
    await compactRuns();
  });
}
