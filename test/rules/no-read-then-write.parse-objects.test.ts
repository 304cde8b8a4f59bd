// no-read-then-write on Parse Server's SDK: an object read by a query (`await query.first()` on a
// `new Parse.Query('Wallet')`), a field read with `wallet.get('credits')`, changed in JavaScript, set and
// saved. Not reported: the server's `increment`, a value not computed from the object, a `first()` of
// something that is not a Parse query.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

/** A wallet read by a query made with `query`, changed by `change`, saved on line 8. */
const topUp = (change: string, query = "new Parse.Query('Wallet')") =>
  lines(
    'export const topUp = async (walletId, amount) => {',
    `  const query = ${query};`,
    "  query.equalTo('objectId', walletId);",
    '  const wallet = await query.first({ useMasterKey: true });',
    '  if (!wallet) return;',
    `  ${change};`,
    "  wallet.set('touchedAt', new Date());",
    '  await wallet.save(null, { useMasterKey: true });',
    '};',
  );

ruleTester.run('no-read-then-write (Parse objects)', rule, {
  valid: [
    topUp("wallet.increment('credits', Number(amount))"),
    topUp("wallet.set('credits', Number(amount))"),
    topUp("wallet.set('credits', (wallet.get('credits') || 0) + Number(amount))", 'makeLocalList()'),
  ],
  invalid: [
    {
      code: topUp("wallet.set('credits', (wallet.get('credits') || 0) + Number(amount))"),
      errors: [{ messageId: 'parse', data: { field: 'credits' }, line: 8, column: 16 }],
    },
    {
      code: topUp("const left = wallet.get('credits') - Number(amount);\n  wallet.set({ credits: left })"),
      errors: [{ messageId: 'parse', data: { field: 'credits' }, line: 9, column: 16 }],
    },
  ],
});
