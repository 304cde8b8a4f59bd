// require-atomic-claim when a row's running flag is checked in JavaScript and set in a second
// statement (`if (account.syncRunning) return;` then `update({ data: { syncRunning: true } })`,
// `job.isRunning = true; await job.save()`, a state compared with a run under way): two replicas
// both read it unset, both set it and both run. Not reported: the flag set by a conditional
// update whose count is used, the read under a lease or a row lock, a check of another state (a
// transition validated, not a run), a flag only cleared.
import { ruleTester } from './rule-tester.js';
import { requireAtomicClaim } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

const PRISMA = ["import { PrismaClient } from '@prisma/client';", 'const prisma = new PrismaClient();'];

/** An account sync guarded by the row's `syncRunning` flag; `set` claims the turn. */
const sync = (set: string, ...rest: string[]) =>
  lines(
    ...PRISMA,
    'export async function syncAccount(accountId: string) {',
    '  const account = await prisma.account.findUnique({ where: { id: accountId } });',
    '  if (!account || account.syncRunning) return;',
    `  ${set}`,
    '  await pullRemote(account.id);',
    '  await prisma.account.update({ where: { id: accountId }, data: { syncRunning: false } });',
    ...rest,
    '}',
    'async function pullRemote(id: string) {',
    '  return id;',
    '}',
  );

const SET = 'await prisma.account.update({ where: { id: accountId }, data: { syncRunning: true } });';

ruleTester.run('require-atomic-claim (a running flag checked, then set)', rule, {
  valid: [
    // one conditional statement claims the turn, and its count decides
    sync(
      'const { count } = await prisma.account.updateMany({ where: { id: accountId, syncRunning: false }, data: { syncRunning: true } });',
      '  if (count !== 1) return;',
    ),
    // the whole run under a lease
    lines(
      "import { runExclusive } from 'replica-guard';",
      ...PRISMA,
      'export async function syncAccount(accountId: string) {',
      '  await runExclusive(`sync:${accountId}`, 60_000, async () => {',
      '    const account = await prisma.account.findUnique({ where: { id: accountId } });',
      '    if (!account || account.syncRunning) return;',
      `    ${SET}`,
      '  });',
      '}',
    ),
    // the row locked in the transaction before the check
    lines(
      "import { Pool } from 'pg';",
      'const pool = new Pool();',
      'export async function runExport(client, exportId: string) {',
      "  const { rows } = await client.query('SELECT exporting FROM exports WHERE id = $1 FOR UPDATE', [exportId]);",
      '  if (rows[0].exporting) return;',
      "  await client.query('UPDATE exports SET exporting = true WHERE id = $1', [exportId]);",
      '}',
    ),
    // another state checked: a transition validated, not a run under way
    lines(
      ...PRISMA,
      'export async function sendReport(reportId: string) {',
      '  const report = await prisma.report.findUnique({ where: { id: reportId } });',
      "  if (report.status !== 'draft') throw new Error('already sent');",
      "  await prisma.report.update({ where: { id: reportId }, data: { status: 'sent' } });",
      '}',
    ),
    // the flag only cleared after the check
    lines(
      ...PRISMA,
      'export async function resetSync(accountId: string) {',
      '  const account = await prisma.account.findUnique({ where: { id: accountId } });',
      '  if (!account?.syncRunning) return;',
      '  await prisma.account.update({ where: { id: accountId }, data: { syncRunning: false } });',
      '}',
    ),
  ],
  invalid: [
    // Prisma: checked, then set by id alone
    { code: sync(SET), errors: [{ messageId: 'checkedFlagClaim', data: { column: 'syncRunning' }, line: 6, column: 24 }] },
    // Mongoose: the flag assigned on the document, then saved
    {
      code: lines(
        "import mongoose from 'mongoose';",
        "const Job = mongoose.model('Job');",
        'export async function runJob(id: string) {',
        '  const job = await Job.findById(id);',
        "  if (job.isRunning) throw new Error('busy');",
        '  job.isRunning = true;',
        '  await job.save();',
        '  await job.work();',
        '}',
      ),
      errors: [{ messageId: 'checkedFlagClaim', data: { column: 'isRunning' }, line: 7, column: 13 }],
    },
    // SQL: the state compared with a run under way, then set to it
    {
      code: lines(
        "import { Pool } from 'pg';",
        'const pool = new Pool();',
        'export async function rebuildIndex(indexId: string) {',
        "  const { rows } = await pool.query('SELECT state FROM search_indexes WHERE id = $1', [indexId]);",
        "  if (rows[0].state === 'processing') return;",
        '  await pool.query("UPDATE search_indexes SET state = \'processing\' WHERE id = $1", [indexId]);',
        '}',
      ),
      errors: [{ messageId: 'checkedFlagClaim', data: { column: 'state' }, line: 6, column: 14 }],
    },
  ],
});
