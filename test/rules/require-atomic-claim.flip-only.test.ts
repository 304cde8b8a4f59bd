// require-atomic-claim when a loop over state-filtered rows checks each row's time against now and
// only moves the rows past it on (`auction.state = 'closed'; await auction.save();`), nothing else
// done: a sweep by time written row by row — the write is the whole action, and a second replica
// writes the same values. Quiet. Reported: the same loop that also calls anything on the way (a
// notice sent, a refund), writes a value worked out elsewhere, or checks no time.
import { jsRuleTester, ruleTester } from './rule-tester.js';
import { claim } from './claim-report.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

/** A Sequelize task closing the live auctions whose end has passed; `inside` runs under the time check. */
const closer = (...inside: string[]) =>
  lines(
    "import { auctions } from '../models';",
    'export async function closeEnded() {',
    "  const live = await auctions.findAll({ where: { state: 'live' } });",
    '  live.forEach(async (auction) => {',
    '    if (auction.endsAt < new Date()) {',
    ...inside.map((l) => `      ${l}`),
    '    }',
    '  });',
    '}',
  );

ruleTester.run('require-atomic-claim (a state flipped and saved, nothing else)', rule, {
  valid: [
    closer("auction.state = 'closed';", 'auction.closedAt = new Date();', 'await auction.save();'),
    closer("auction.state = 'closed';", 'await auction.save();', "console.log('closed', auction.id);"),
  ],
  invalid: [
    // a notice sent on the way: work that runs twice
    claim(
      closer("auction.state = 'closed';", 'await auction.save();', 'await mailer.sendWinner(auction.id);'),
      'findAll',
      'state',
      'auction.save(',
    ),
    // a value worked out elsewhere, not a constant
    claim(
      closer('auction.winnerId = await pickWinner(auction.id);', "auction.state = 'closed';", 'await auction.save();'),
      'findAll',
      'state',
      'auction.save(',
    ),
    // no time checked: rows of a queue marked done, nothing else (still a claim: see require-atomic-claim.test.ts)
    claim(
      lines(
        "import { auctions } from '../models';",
        'export async function closeAll() {',
        "  const live = await auctions.findAll({ where: { state: 'live' } });",
        '  for (const auction of live) {',
        "    auction.state = 'closed';",
        '    await auction.save();',
        '  }',
        '}',
      ),
      'findAll',
      'state',
      'auction.save(',
    ),
  ],
});

jsRuleTester.run('require-atomic-claim (a state flipped and saved in a for…of, plain JavaScript)', rule, {
  valid: [
    lines(
      "const Lot = require('./lot.model');",
      'async function expireLots() {',
      "  const open = await Lot.find({ status: 'open' });",
      '  for (const lot of open) {',
      '    if (!lot.deadline || lot.deadline > Date.now()) continue;',
      '    if (Date.now() >= lot.deadline) {',
      "      lot.status = 'expired';",
      '      await lot.save();',
      '    }',
      '  }',
      '}',
      'setInterval(expireLots, 60000);',
    ),
  ],
  invalid: [
    claim(
      lines(
        "const Lot = require('./lot.model');",
        'async function expireLots() {',
        "  const open = await Lot.find({ status: 'open' });",
        '  for (const lot of open) {',
        '    if (Date.now() < lot.deadline) continue;',
        "    lot.status = 'expired';",
        '    await lot.save();',
        '    await refunds.issue(lot.bidderId);',
        '  }',
        '}',
        'setInterval(expireLots, 60000);',
      ),
      'find',
      'status',
      'lot.save(',
    ),
  ],
});
