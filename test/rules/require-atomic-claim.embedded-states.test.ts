// require-atomic-claim on MongoDB documents picked by the state of an embedded document or array
// element (`find({ 'refunds.status': 'pending' })`, a dotted path): the documents read are the
// pending work, acted on element by element and saved whole, so two replicas both act. The same
// path re-checked in a conditional update whose modified count decides is a claim; a dotted path
// to a field that holds no state picks no pending work.
import { ruleTester } from './rule-tester.js';
import { claim } from './claim-report.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

/** Members read by `filter`, each refund of theirs handled by `perRefund`, then `after` for the member. */
const refunds = (filter: string, perRefund: string[], after: string[] = []) =>
  lines(
    "import Member from '../models/member.js';",
    'export const payRefunds = async () => {',
    `  const members = await Member.find(${filter});`,
    '  for (const member of members) {',
    '    for (const refund of member.refunds) {',
    ...perRefund.map((l) => `      ${l}`),
    '    }',
    ...after.map((l) => `    ${l}`),
    '  }',
    '};',
  );

const PAID_AND_SAVED: [string[], string[]] = [
  ["if (refund.status !== 'pending') continue;", 'await bank.transfer(refund.amount, member.iban);', "refund.status = 'paid';"],
  ['await member.save();'],
];

ruleTester.run('require-atomic-claim (states of embedded documents)', rule, {
  valid: [
    // each refund claimed by a conditional update of its element, the modified count deciding
    refunds("{ 'refunds.status': 'pending' }", [
      "const res = await Member.updateOne({ _id: member._id, 'refunds._id': refund._id, 'refunds.status': 'pending' }, { $set: { 'refunds.$.status': 'paying' } });",
      'if (res.modifiedCount === 0) continue;',
      'await bank.transfer(refund.amount, member.iban);',
    ]),
    // a dotted path to a field that holds no state
    refunds("{ 'address.city': 'Oslo' }", ...PAID_AND_SAVED),
  ],
  invalid: [
    // the elements paid and the member saved whole, nothing claimed first
    claim(refunds("{ 'refunds.status': 'pending', 'refunds.method': 'wire' }", ...PAID_AND_SAVED), 'find', 'refunds.status'),
    // the element's state set with a plain update by the document's key
    claim(
      refunds("{ 'refunds.status': 'pending' }", [
        'await bank.transfer(refund.amount, member.iban);',
        "await Member.updateOne({ _id: member._id, 'refunds._id': refund._id }, { $set: { 'refunds.$.status': 'paid' } });",
      ]),
      'find',
      'refunds.status',
    ),
  ],
});
