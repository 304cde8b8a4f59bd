// Prisma: `prisma migrate deploy` as a child process, under the lock, with the direct URL as
// DATABASE_URL (and DIRECT_URL, for schemas that declare `directUrl`).
import { spawn } from 'node:child_process';
import { ReplicaGuardError } from '../../errors.js';
import type { Migrate } from '../migration-client.js';

export interface PrismaMigratorOptions {
  /** Path to schema.prisma (`--schema`). */
  schema?: string;
  /** The command to run. Default: `npx --no-install prisma migrate deploy`. */
  command?: { file: string; args: string[] };
  cwd?: string;
  /** Extra environment for the child. */
  env?: Record<string, string>;
}

export function prismaMigrator(options: PrismaMigratorOptions = {}): Migrate {
  return async (_client, { url }) => {
    const command = options.command ?? {
      file: 'npx',
      args: ['--no-install', 'prisma', 'migrate', 'deploy', ...(options.schema ? ['--schema', options.schema] : [])],
    };
    const child = spawn(command.file, command.args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env, DATABASE_URL: url, DIRECT_URL: url },
      stdio: 'inherit',
    });
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (exitCode, signal) => resolve(signal ? null : exitCode));
    });
    if (code !== 0)
      throw new ReplicaGuardError(
        'MIGRATION_FAILED',
        `${[command.file, ...command.args].join(' ')} exited with ${code === null ? 'a signal' : `code ${code}`}`,
      );
  };
}
