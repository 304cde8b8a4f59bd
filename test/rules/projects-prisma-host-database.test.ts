// A Prisma client on a SQLite schema is a database file on this host or device: no second replica
// shares it. The schema is found where Prisma's CLI finds it (package.json `prisma.schema`, else
// `prisma/schema.prisma`); a claim read through the client (require-atomic-claim) and a spawned
// `prisma migrate deploy` (no-in-app-migrations) are then not reported. The same file in a package
// whose schema is PostgreSQL, or whose schema is not found, is reported as before.
import { describe, expect, test } from 'vitest';
import { lintProjectFile } from './lint-project.js';

const findings = (file: string) => lintProjectFile('prisma-host-database', file, ['require-atomic-claim', 'no-in-app-migrations']);

describe('Prisma on a per-host SQLite file', () => {
  test('a package whose package.json points at a SQLite schema: quiet', async () => {
    expect(await findings('packages/desk/src/runs.ts')).toEqual([]);
  });

  test('the same code on a PostgreSQL schema in prisma/schema.prisma: reported', async () => {
    expect(await findings('packages/hub/src/runs.ts')).toEqual([
      'replica-guard/require-atomic-claim packages/hub/src/runs.ts:7:37 findThenCreateClaim',
      'replica-guard/no-in-app-migrations packages/hub/src/runs.ts:14:3 schemaWriteCommand',
    ]);
  });

  test('the same code with no schema found: judged as before', async () => {
    expect(await findings('packages/kiosk/src/runs.ts')).toEqual([
      'replica-guard/require-atomic-claim packages/kiosk/src/runs.ts:7:37 findThenCreateClaim',
      'replica-guard/no-in-app-migrations packages/kiosk/src/runs.ts:14:3 schemaWriteCommand',
    ]);
  });
});
