// require-atomic-claim and no-read-then-write in a one-off command an operator runs by hand (a
// command-line framework imported, or a file that runs only when started directly): one process,
// once, so nothing races it and nothing is reported. A command that runs again — a timer, an
// endless loop, a cron runner, a file in a folder a scheduler runs — or that starts a server stays
// reported, wherever the file lies.
import { ruleTester } from './rule-tester.js';
import { claim } from './claim-report.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const claimRule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];
const counterRule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

/** Pending invites read and marked sent one by one, then `tail` (how the file is started). */
const invites = (head: string, ...tail: string[]) =>
  lines(
    head,
    'export async function sendInvites(pool) {',
    '  const { rows } = await pool.query("SELECT * FROM invites WHERE status = \'pending\'");',
    '  for (const row of rows) {',
    '    await mailInvite(row);',
    '    await pool.query("UPDATE invites SET status = \'sent\' WHERE id = $1", [row.id]);',
    '  }',
    '}',
    ...tail,
  );

const COMMANDER = "import { Command } from 'commander';";
const DIRECT = "import { pool } from '../server/db';";

/** A Sequelize post's views read, changed and saved, then `tail`. */
const views = (head: string, ...tail: string[]) =>
  lines(
    head,
    "import { Model } from 'sequelize';",
    'export async function fixViews(id: number) {',
    '  const post = await Post.findByPk(id);',
    '  post.views += 1;',
    '  await post.save();',
    '}',
    ...tail,
  );

ruleTester.run('require-atomic-claim (one-off commands)', claimRule, {
  valid: [
    // a command-line framework: an operator's command
    { code: invites(COMMANDER, 'new Command().action(() => sendInvites(pool)).parse();'), filename: 'scripts/resend-invites.ts' },
    // run only when started directly, then exits
    { code: invites(DIRECT, 'if (require.main === module) sendInvites(pool).then(() => process.exit(0));'), filename: 'scripts/resend.ts' },
    { code: invites(DIRECT, 'if (!module.parent) sendInvites(pool).then(() => process.exit(0));'), filename: 'tools/resend.ts' },
  ],
  invalid: [
    // the same function imported by the server: a worker on every replica
    claim(invites(DIRECT), 'SELECT', 'status', 'pool.query('),
    // started directly, but on a timer: a worker that stays up
    {
      ...claim(
        invites(DIRECT, 'if (require.main === module) setInterval(() => sendInvites(pool), 60000);'),
        'SELECT',
        'status',
        'pool.query(',
      ),
      filename: 'scripts/worker.ts',
    },
    // an endless loop under a command-line framework
    {
      ...claim(
        invites(COMMANDER, 'new Command().action(async () => { while (true) await sendInvites(pool); }).parse();'),
        'SELECT',
        'status',
        'pool.query(',
      ),
      filename: 'scripts/worker.ts',
    },
    // a project's cron runner
    {
      ...claim(
        invites(DIRECT, "if (require.main === module) runCronJob('invites', () => sendInvites(pool));"),
        'SELECT',
        'status',
        'pool.query(',
      ),
      filename: 'scripts/invites.ts',
    },
    // a file of a folder a scheduler runs
    {
      ...claim(
        invites(DIRECT, 'if (require.main === module) sendInvites(pool).then(() => process.exit(0));'),
        'SELECT',
        'status',
        'pool.query(',
      ),
      filename: 'cron/hourly/invites.ts',
    },
    // started directly, but it starts a server
    {
      ...claim(invites(DIRECT, 'if (!module.parent) app.listen(3000);'), 'SELECT', 'status', 'pool.query('),
      filename: 'scripts/server.ts',
    },
  ],
});

ruleTester.run('no-read-then-write (one-off commands)', counterRule, {
  valid: [
    {
      code: views(COMMANDER, "new Command().argument('<id>').action((id) => fixViews(Number(id))).parse();"),
      filename: 'scripts/fix-views.ts',
    },
    {
      code: views("import '../env';", 'if (require.main === module) fixViews(Number(process.argv[2])).then(() => process.exit());'),
      filename: 'scripts/fix-views.ts',
    },
  ],
  invalid: [
    { code: views("import '../env';"), filename: 'scripts/fix-views.ts', errors: [{ messageId: 'sequelize', line: 6, column: 14 }] },
    {
      code: views(COMMANDER, 'new Command().action(async () => { for (;;) await fixViews(1); }).parse();'),
      filename: 'scripts/fix-views.ts',
      errors: [{ messageId: 'sequelize', line: 6, column: 14 }],
    },
  ],
});
