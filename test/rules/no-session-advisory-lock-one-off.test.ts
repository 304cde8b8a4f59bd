// A script an operator runs by hand, once (a scripts folder, one run of its own function started at
// the top level, no server, no timer), is one process: its session unlock races no replica. A lock
// it takes is there to keep out a second run of it, which a dropped connection lets in: reported.
// The same code run again, or outside a scripts folder, is reported.
import { ruleTester } from './rule-tester.js';
import { noSessionAdvisoryLock, type NoSessionAdvisoryLockMessageIds } from '../../rules/no-session-advisory-lock.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noSessionAdvisoryLock as unknown as Parameters<typeof ruleTester.run<NoSessionAdvisoryLockMessageIds, readonly unknown[]>>[1];

/** A clean-up script: a client of its own frees the session's locks, then disconnects; `start` starts it. */
const RELEASE = (start = 'release();') =>
  lines(
    "import { PrismaClient } from '@prisma/client';",
    'async function release() {',
    '  const db = new PrismaClient();',
    '  try {',
    "    await db.$executeRawUnsafe('SELECT pg_advisory_unlock_all()');",
    '  } finally {',
    '    await db.$disconnect();',
    '  }',
    '}',
    start,
  );

ruleTester.run('no-session-advisory-lock: one-off operator scripts', rule, {
  valid: [
    { code: RELEASE(), filename: 'scripts/release-stuck-lock.ts' },
    { code: RELEASE('release().catch(console.error);'), filename: 'tools/scripts/unlock.ts' },
  ],
  invalid: [
    // a one-off backfill that takes a try-lock to refuse a second run of itself: the second run races it
    {
      code: lines(
        "import { Client } from 'pg';",
        'async function reindexArchive() {',
        '  const conn = new Client({ connectionString: process.env.ARCHIVE_URL });',
        '  await conn.connect();',
        "  const { rows } = await conn.query('SELECT pg_try_advisory_lock($1) AS held', [4711]);",
        "  if (!rows[0].held) throw new Error('another reindex is running');",
        '  await conn.end();',
        '}',
        'reindexArchive().catch(console.error);',
      ),
      filename: 'scripts/ops/reindex-archive.ts',
      errors: [{ messageId: 'sessionLock', line: 5, column: 45 }],
    },
    // started again and again: every replica runs it
    {
      code: RELEASE('setInterval(release, 60_000);'),
      filename: 'scripts/release-stuck-lock.ts',
      errors: [{ messageId: 'sessionUnlock', line: 5, column: 40 }],
    },
    // a module of the service that exports the release for its callers: no run of its own
    {
      code: RELEASE('export { release };'),
      filename: 'scripts/lib/release.ts',
      errors: [{ messageId: 'sessionUnlock', line: 5, column: 40 }],
    },
  ],
});
