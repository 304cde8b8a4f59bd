// require-atomic-claim when the row read is loaded again by its key through a loader (`const show =
// await podcasts.loadShow(next.id)`) and that copy is the one marked: it is the same row. The read in a
// `while` condition picks one due row per turn. A loader handed another field (`next.curatorId`)
// loads another table's row, and a conditional update whose count decides still claims.
import { ruleTester } from './rule-tester.js';
import { claim } from './claim-report.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

/** Live podcasts picked one at a time in a `while` condition, loaded with `load`, pulled, then `mark`. */
const crawler = (load: string, ...mark: string[]) =>
  lines(
    "const knex = require('../lib/knex');",
    "const podcasts = require('../models/podcasts');",
    'async function crawl() {',
    '  let next;',
    "  while ((next = await knex('podcasts').where('status', 'live').where('crawled_at', '<', hourAgo()).select('id').first())) {",
    `    const show = await ${load};`,
    '    const pulled = await pullTracks(show.rssUrl);',
    ...mark.map((l) => `    ${l}`),
    '  }',
    '}',
    'module.exports = { crawl };',
  );

const MARK = "await knex('podcasts').where('id', show.id).update({ crawled_at: new Date(), pulled: pulled.length });";

ruleTester.run('require-atomic-claim (rows loaded again by key)', rule, {
  valid: [
    // claimed first: the turn re-checked in the update and its count tested
    crawler(
      'podcasts.loadShow(next.id)',
      "const n = await knex('podcasts').where('id', show.id).where('crawled_at', '<', hourAgo()).update({ crawled_at: new Date() });",
      'if (n === 0) continue;',
    ),
    // the loader is handed another table's key: the row marked is the curator's
    crawler('curators.loadCurator(next.curatorId)', "await knex('curators').where('id', show.id).update({ notified_at: new Date() });"),
  ],
  invalid: [
    claim(crawler('podcasts.loadShow(next.id)', MARK), 'where', 'status', "knex('podcasts').where("),
    claim(crawler('loadPodcast(context, next.id, { withStats: false })', MARK), 'where', 'status', "knex('podcasts').where("),
  ],
});
