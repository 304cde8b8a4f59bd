// no-read-then-write where a helper call sits high in a long function, its question (does the
// helper read?) left pending while the code after it is followed: the findings are those of a short
// function — a helper that reads is a read, one that does not leaves the code after it as if it held
// no read, and a read after it still counts.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const PRISMA = "import { PrismaClient } from '@prisma/client';\nconst prisma = new PrismaClient();";
/** Sixty lines of code that touch neither the read nor the write (a long stretch between the helper call and the write). */
const FILLER = Array.from({ length: 60 }, (_, i) => `  audit.push({ step: ${i}, note: 'checked the account state before the charge' });`);

/** `charge` calls `helper` first, then the filler, then writes the balance from `source`. */
const charge = (helper: string[], first: string, source: string) =>
  lines(
    PRISMA,
    ...helper,
    'export async function charge(id: string, amount: number) {',
    '  const audit = [];',
    `  ${first}`,
    ...FILLER,
    `  await prisma.account.update({ where: { id }, data: { balance: ${source}.balance - amount } });`,
    '}',
  );
const LOADS_ACCOUNT = ['async function loadAccount(id: string) {', '  return prisma.account.findUnique({ where: { id } });', '}'];
const LOADS_NOTHING = ['async function loadLimits(id: string) {', '  return { id, balance: 100 };', '}'];

ruleTester.run('no-read-then-write (long functions)', noReadThenWrite, {
  valid: [
    // the helper reads nothing: its value written back is no read
    charge(LOADS_NOTHING, 'const limits = await loadLimits(id);', 'limits'),
  ],
  invalid: [
    // the helper reads the row: asked at once, it is the read
    {
      code: charge(LOADS_ACCOUNT, 'const account = await loadAccount(id);', 'account'),
      errors: [{ messageId: 'prisma', data: { field: 'balance' }, line: 2 + LOADS_ACCOUNT.length + 3 + FILLER.length + 1 }],
    },
    // a helper that reads nothing first, a read after it: the read still counts
    {
      code: lines(
        PRISMA,
        ...LOADS_NOTHING,
        'export async function charge(id: string, amount: number) {',
        '  const audit = [];',
        '  const limits = await loadLimits(id);',
        ...FILLER,
        '  const account = await prisma.account.findUnique({ where: { id } });',
        '  await prisma.account.update({ where: { id }, data: { balance: account.balance - limits.balance } });',
        '}',
      ),
      errors: [{ messageId: 'prisma', data: { field: 'balance' }, line: 2 + LOADS_NOTHING.length + 3 + FILLER.length + 2 }],
    },
  ],
});
