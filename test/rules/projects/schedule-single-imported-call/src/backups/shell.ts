import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Wraps a shell script so that two runs on this host do not overlap (flock on a local file). */
export function withFileLock(path: string, script: string): string {
  return `exec 9>"${path}.lock"\nflock 9\n${script}`;
}

export async function sh(script: string): Promise<string> {
  const { stdout } = await run('sh', ['-c', script]);
  return stdout;
}
