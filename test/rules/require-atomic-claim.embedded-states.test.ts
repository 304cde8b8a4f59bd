// require-atomic-claim on MongoDB documents picked by the state of an embedded document or array
// element (`find({ 'stipends.status': 'pending' })`, a dotted path): the documents read are the
// pending work, acted on element by element and saved whole, so two replicas both act. The same
// path re-checked in a conditional update whose modified count decides is a claim; a dotted path
// to a field that holds no state picks no pending work.
import { ruleTester } from './rule-tester.js';
import { claim } from './claim-report.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

/** Patrons read by `filter`, each stipend of theirs handled by `perStipend`, then `after` for the patron. */
const stipends = (filter: string, perStipend: string[], after: string[] = []) =>
  lines(
    "import Patron from '../models/patron.js';",
    'export const payRefunds = async () => {',
    `  const patrons = await Patron.find(${filter});`,
    '  for (const patron of patrons) {',
    '    for (const stipend of patron.stipends) {',
    ...perStipend.map((l) => `      ${l}`),
    '    }',
    ...after.map((l) => `    ${l}`),
    '  }',
    '};',
  );

const PAID_AND_SAVED: [string[], string[]] = [
  ["if (stipend.status !== 'pending') continue;", 'await bank.transfer(stipend.amount, patron.iban);', "stipend.status = 'paid';"],
  ['await patron.save();'],
];

ruleTester.run('require-atomic-claim (states of embedded documents)', rule, {
  valid: [
    // each stipend claimed by a conditional update of its element, the modified count deciding
    stipends("{ 'stipends.status': 'pending' }", [
      "const res = await Patron.updateOne({ _id: patron._id, 'stipends._id': stipend._id, 'stipends.status': 'pending' }, { $set: { 'stipends.$.status': 'wiring' } });",
      'if (res.modifiedCount === 0) continue;',
      'await bank.transfer(stipend.amount, patron.iban);',
    ]),
    // a dotted path to a field that holds no state
    stipends("{ 'address.city': 'Oslo' }", ...PAID_AND_SAVED),
  ],
  invalid: [
    // the elements paid and the patron saved whole, nothing claimed first
    claim(
      stipends("{ 'stipends.status': 'pending', 'stipends.method': 'wire' }", ...PAID_AND_SAVED),
      'find',
      'stipends.status',
      'patron.save(',
    ),
    // the element's state set with a plain update by the document's key
    claim(
      stipends("{ 'stipends.status': 'pending' }", [
        'await bank.transfer(stipend.amount, patron.iban);',
        "await Patron.updateOne({ _id: patron._id, 'stipends._id': stipend._id }, { $set: { 'stipends.$.status': 'paid' } });",
      ]),
      'find',
      'stipends.status',
      'Patron.updateOne(',
    ),
  ],
});
