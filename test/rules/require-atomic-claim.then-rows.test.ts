// require-atomic-claim on rows a read hands to a `.then` callback (`Postcard.findAll({ where: { sent:
// false } }).then((cards) => cards.forEach(…))`): the callback's parameter is the list read,
// acted on and marked inside it. A claim in the callback (a conditional update whose count decides)
// keeps it quiet, as with a named result.
import { ruleTester } from './rule-tester.js';
import { claim } from './claim-report.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

/** Unsent postcards read on a timer and handed to `.then`, each handled by `each` (the postcard is `r`). */
const reminders = (...each: string[]) =>
  lines(
    "const models = require('./models');",
    'setInterval(() => {',
    '  models.Postcard.findAll({ where: { sent: false }, include: [models.Member] })',
    '    .then((list) => {',
    '      list.forEach((r) => {',
    ...each.map((l) => `        ${l}`),
    '      });',
    '    });',
    '}, 60000);',
  );

ruleTester.run('require-atomic-claim (rows handed to .then)', rule, {
  valid: [
    // claimed in the callback: the flag re-checked and the count tested before the mail
    reminders(
      'models.Postcard.update({ sent: true }, { where: { id: r.id, sent: false } }).then(([n]) => {',
      '  if (n === 1) courier.mail(r.member.email);',
      '});',
    ),
    // the callback counts the rows, it marks none
    lines(
      "const models = require('./models');",
      'exports.pending = () => models.Postcard.findAll({ where: { sent: false } }).then((list) => list.length);',
    ),
  ],
  invalid: [
    // marked in the courier's callback after the mail went out
    claim(
      reminders('courier.mail(r.member.email, (err) => {', '  if (err) return;', '  r.sent = true;', '  r.save();', '});'),
      'findAll',
      'sent',
      'r.save(',
    ),
    // marked with the instance's own update
    claim(reminders('courier.mail(r.member.email);', 'r.update({ sent: true });'), 'findAll', 'sent', 'r.update('),
  ],
});
