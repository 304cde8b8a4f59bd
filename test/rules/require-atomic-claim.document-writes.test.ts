// require-atomic-claim when the row is marked with a Mongoose write that hands the document back
// (`findOneAndUpdate`, `findByIdAndUpdate`, `findOneAndDelete`): keyed by the row alone after the work
// it is a mark like `updateOne` — reported; with the state re-checked in the filter and the document
// returned used, it is the claim itself — quiet.
import { jsRuleTester, ruleTester } from './rule-tester.js';
import { claim } from './claim-report.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

/** A poster of queued tweets: `each` runs for every tweet read. */
const poster = (...each: string[]) =>
  lines(
    "const Tweet = require('./tweet.model');",
    'async function postQueued() {',
    "  const queued = await Tweet.find({ status: 'queued' }).limit(20);",
    '  for (const tweet of queued) {',
    ...each.map((l) => `    ${l}`),
    '  }',
    '}',
    'setInterval(postQueued, 30000);',
  );

jsRuleTester.run('require-atomic-claim (a document written and handed back)', rule, {
  valid: [
    // claimed: the state re-checked in the filter, and the document handed back decides
    poster(
      "const mine = await Tweet.findOneAndUpdate({ _id: tweet._id, status: 'queued' }, { $set: { status: 'posting' } }, { new: true });",
      'if (!mine) continue;',
      'await timeline.post(mine.text);',
    ),
    poster("const gone = await Tweet.findOneAndDelete({ _id: tweet._id, status: 'queued' });", 'if (gone) await timeline.post(gone.text);'),
  ],
  invalid: [
    claim(
      poster('await timeline.post(tweet.text);', "await Tweet.findOneAndUpdate({ _id: tweet._id }, { $set: { status: 'posted' } });"),
      'find',
      'status',
      'Tweet.findOneAndUpdate(',
    ),
    claim(
      poster('await timeline.post(tweet.text);', 'await Tweet.findByIdAndDelete(tweet._id);'),
      'find',
      'status',
      'Tweet.findByIdAndDelete(',
    ),
  ],
});
