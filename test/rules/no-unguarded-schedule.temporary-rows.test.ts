// no-unguarded-schedule on a job named for dropping temporary records (`removeTmpAccounts`,
// `deleteTempInvites`) whose work deletes shared rows: the host-local word says what the rows are,
// not files on this host, so the name does not make it per replica. Named for files on this host
// (`cleanupTempFiles`), or writing nothing shared, it stays quiet.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'atlas' } };

/** A cron job held in `name` running `work` every ten minutes. */
const job = (name: string, ...work: string[]) =>
  lines(
    "import cron from 'node-cron';",
    "import { prisma } from './prisma';",
    "import { rm } from 'node:fs/promises';",
    'const pending = new Map<string, number>();',
    '',
    `const ${name} = cron.schedule('*/10 * * * *', async () => {`,
    ...work,
    '});',
    '',
    `export default { ${name} };`,
  );
const DELETE_ROWS = '  await prisma.account.deleteMany({ where: { verifiedAt: null } });';

const reported = (name: string, key: string) => {
  const code = job(name, DELETE_ROWS);
  return {
    settings,
    code,
    errors: [
      {
        messageId: 'unguardedSchedule' as const,
        line: 6,
        column: 40 + name.length,
        suggestions: [
          {
            messageId: 'addClaimPeriod' as const,
            output: code
              .replace("'node:fs/promises';", "'node:fs/promises';\nimport { claimPeriod } from 'replica-guard';")
              .replace('async () => {', `async () => {\n  if (!(await claimPeriod('atlas:${key}', { cron: '*/10 * * * *' }))) return;`),
          },
        ],
      },
    ],
  };
};

ruleTester.run('no-unguarded-schedule: temporary records dropped', noUnguardedSchedule, {
  valid: [
    // Files on this host: each replica cleans its own.
    { settings, code: job('cleanupTempFiles', "  await rm('/tmp/atlas', { recursive: true, force: true });") },
    { settings, code: job('removeTmpUploads', "  await rm('/tmp/atlas-uploads', { recursive: true, force: true });") },
    // Temporary records of this process's memory: nothing shared written.
    { settings, code: job('removeTmpAccounts', '  pending.clear();') },
  ],
  invalid: [reported('removeTmpAccounts', 'remove-tmp-accounts'), reported('deleteTempInvites', 'delete-temp-invites')],
});
