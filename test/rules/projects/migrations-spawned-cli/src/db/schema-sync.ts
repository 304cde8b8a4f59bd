import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

function cliPath(): string {
  let cli = join(process.cwd(), 'node_modules', '.bin', 'prisma');
  if (!existsSync(cli)) cli = join(process.cwd(), '..', '..', 'node_modules', '.bin', 'prisma');
  return cli;
}

/** Brings the database to the schema file: the DDL Prisma prints, applied at once. */
export function syncDatabaseSchema(): void {
  const cli = cliPath();
  const url = process.env.DATABASE_URL ?? '';
  const ddl = execSync(`${cli} migrate diff --from-url "${url}" --to-schema-datamodel prisma/schema.prisma --script`, {
    encoding: 'utf8',
  });
  if (ddl.trim() === '') return;
  execSync(`${cli} db execute --stdin --url "${url}"`, { input: ddl });
}

/** Inserts the fixed reference rows (idempotent SQL): data, not schema. */
export async function loadSeedRows(): Promise<void> {
  const cli = cliPath();
  execSync(`${cli} db execute --file prisma/seed.sql --url "${process.env.DATABASE_URL ?? ''}"`);
}
