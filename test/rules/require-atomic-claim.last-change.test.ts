// require-atomic-claim when the update of each row read writes values computed from it and the
// stamp of the row's last change (`updatedAt: new Date()`, `updated_at`, `modifiedOn`): that stamp
// goes with every update, so the row is not moved on — a recompute, the same whichever replica
// writes last. A stamp that marks the work (`processedAt`, `sentAt`) or a state still moves the row on.
// Also a desktop's or editor's duplicate of a module (`invoices copy.ts`, `jobs (1).ts`): imported by
// nothing, it runs in no replica, for this rule and no-read-then-write alike.
import { ruleTester } from './rule-tester.js';
import { claim } from './claim-report.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];
const readThenWrite = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

/** Pending reminders rescheduled every minute; `data` is what each update writes. */
const reschedule = (data: string) =>
  lines(
    "import { PrismaClient } from '@prisma/client';",
    'const prisma = new PrismaClient();',
    'setInterval(async () => {',
    "  const due = await prisma.reminder.findMany({ where: { status: 'pending' } });",
    '  for (const reminder of due) {',
    '    const dueDate = nextDueDate(reminder);',
    `    await prisma.reminder.update({ where: { id: reminder.id }, data: ${data} });`,
    '  }',
    '}, 60_000);',
  );

ruleTester.run('require-atomic-claim (the stamp of the last change moves nothing on)', rule, {
  valid: [
    reschedule('{ dueDate, updatedAt: new Date() }'),
    reschedule('{ dueDate, updated_at: new Date() }'),
    // a duplicate of the module, beside it
    { code: reschedule("{ status: 'sent' }"), filename: 'src/jobs/reminders copy.ts' },
    { code: reschedule("{ status: 'sent' }"), filename: 'src/jobs/reminders (1).ts' },
  ],
  invalid: [
    claim(reschedule('{ dueDate, processedAt: new Date() }'), 'findMany', 'status', 'prisma.reminder.update('),
    claim(reschedule("{ status: 'sent', updatedAt: new Date() }"), 'findMany', 'status', 'prisma.reminder.update('),
    // a module merely named for copying
    { ...claim(reschedule("{ status: 'sent' }"), 'findMany', 'status', 'prisma.reminder.update('), filename: 'src/jobs/copy.ts' },
  ],
});

/** A balance read, changed in JavaScript and written back. */
const CREDIT = lines(
  "import { PrismaClient } from '@prisma/client';",
  'const prisma = new PrismaClient();',
  'export async function credit(id: string, n: number) {',
  '  const wallet = await prisma.wallet.findUnique({ where: { id } });',
  '  await prisma.wallet.update({ where: { id }, data: { balance: wallet.balance + n } });',
  '}',
);

ruleTester.run('no-read-then-write (a duplicate of a module)', readThenWrite, {
  valid: [{ code: CREDIT, filename: 'src/wallet/wallet.service copy.ts' }],
  invalid: [
    {
      code: CREDIT,
      filename: 'src/wallet/wallet-copy.service.ts',
      errors: [{ messageId: 'prisma', data: { field: 'balance' }, line: 5, column: 23 }],
    },
  ],
});
