// no-unguarded-schedule on a job whose only work is a command line restarting this host's own
// processes (`execSync('pm2 reload api')`, `systemctl restart worker`), beside log lines: each host's
// process manager restarts what it runs, so every replica doing it is its own upkeep. A job that also
// writes shared rows, or runs another command, is still reported.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'atlas' } };
const filename = 'src/nightly.ts';

/** A nightly cron job running `work`. */
const nightly = (...work: string[]) =>
  lines(
    "import { execSync, exec } from 'node:child_process';",
    "import cron from 'node-cron';",
    "import { db } from './db';",
    '',
    "cron.schedule('30 4 * * *', async () => {",
    "  console.info('nightly restart');",
    ...work,
    '});',
  );

const reported = (...work: string[]) => {
  const code = nightly(...work);
  return {
    settings,
    filename,
    code,
    errors: [
      {
        messageId: 'unguardedSchedule' as const,
        line: 5,
        column: 29,
        suggestions: [
          {
            messageId: 'addClaimPeriod' as const,
            output: code
              .replace("from './db';", "from './db';\nimport { claimPeriod } from 'replica-guard';")
              .replace('async () => {', "async () => {\n  if (!(await claimPeriod('atlas:nightly-5', { cron: '30 4 * * *' }))) return;"),
          },
        ],
      },
    ],
  };
};

ruleTester.run('no-unguarded-schedule: restarts of this host', noUnguardedSchedule, {
  valid: [
    { settings, filename, code: nightly("  execSync('pm2 reload ledger-api', { stdio: 'inherit' });") },
    {
      settings,
      filename,
      code: nightly('  try {', '    execSync(`pm2 restart ${process.env.APP}`);', '  } catch (e) {', '    console.error(e);', '  }'),
    },
    { settings, filename, code: nightly("  exec('sudo systemctl restart ledger-worker');") },
  ],
  invalid: [
    // The restart beside a write of shared rows.
    reported("  execSync('pm2 reload ledger-api');", "  await db.query('UPDATE deploys SET restarted_at = now()');"),
    // Another command line: what it runs is not known to stay on this host.
    reported("  execSync('node jobs/send-digest.js', { stdio: 'inherit' });"),
  ],
});
