import pg from 'pg';
import { sh, withFileLock } from './shell.js';

const pool = new pg.Pool();

/** Archives a volume, uploads it, records the run and tells the owners. */
export async function runVolumeBackup(volumeId: string): Promise<void> {
  const archive = `/var/backups/${volumeId}.tar`;
  await sh(withFileLock(archive, `tar cf ${archive} /volumes/${volumeId} && aws s3 cp ${archive} s3://backups/${volumeId}/`));
  await pool.query('INSERT INTO backup_runs (volume_id, finished_at) VALUES ($1, now())', [volumeId]);
  await fetch('https://notify.example.com/backups', { method: 'POST', body: JSON.stringify({ volumeId }) });
}
