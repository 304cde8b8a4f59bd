// A data-migration step — a module in a folder named for migrations that exports `up` — is run
// once by a migrator, in one process: no-read-then-write and no-unguarded-schedule leave it alone
// (require-atomic-claim already skips migration folders). The same code in a migrations folder
// without an `up` export (the folder's runner), or with `up` exported from a folder not named for
// migrations, stays reported.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';

const lines = (...l: string[]) => l.join('\n');
const counterRule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];
const scheduleRule = noUnguardedSchedule as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

/** Each shop's `tags` array read, rewritten in JavaScript and saved (the write on line 7), then `tail` (how the module exports it). */
const retag = (...tail: string[]) =>
  lines(
    "import { Shop } from '../models';",
    'async function retagShops() {',
    '  const shops = await Shop.find({});',
    '  for (const shop of shops) {',
    '    const shopDoc = await Shop.findOne({ _id: shop._id });',
    "    const tags = shopDoc.tags.filter((tag) => tag !== 'legacy');",
    '    await Shop.updateOne({ _id: shop._id }, { $set: { tags } });',
    '  }',
    '}',
    ...tail,
  );
const rewrite = { messageId: 'mongoose', line: 7, column: 16 };

/** A step copying a batch, with a timer sweeping the staging rows, then `tail`. */
const batches = (...tail: string[]) =>
  lines(
    "import { db } from '../db';",
    'async function copyBatches() {',
    '  const rows = await db.selectFrom("events").selectAll().limit(500).execute();',
    '  await db.insertInto("event_series").values(rows).execute();',
    '  setInterval(() => db.deleteFrom("event_staging").where("copied", "=", true).execute(), 10000);',
    '}',
    ...tail,
  );
/** The report on the timer, with its suggestion (job named after the file's stem). */
const timer = (stem: string, ...tail: string[]) => ({
  messageId: 'unguardedSchedule',
  line: 5,
  column: 15,
  suggestions: [
    {
      messageId: 'addClaimPeriod',
      output: lines(
        "import { db } from '../db';",
        "import { claimPeriod } from 'replica-guard';",
        'async function copyBatches() {',
        '  const rows = await db.selectFrom("events").selectAll().limit(500).execute();',
        '  await db.insertInto("event_series").values(rows).execute();',
        '  setInterval(async () => {',
        `    if (!(await claimPeriod('replica-guard:${stem}-5', 10000))) return;`,
        '    return db.deleteFrom("event_staging").where("copied", "=", true).execute();',
        '  }, 10000);',
        '}',
        ...tail,
      ),
    },
  ],
});

ruleTester.run('no-read-then-write (migration steps)', counterRule, {
  valid: [
    // ES module step: `export default { up }`
    { code: retag('export default { up: retagShops, down: async () => {} };'), filename: 'packages/shops/migrations/3.js' },
    // `export async function up`
    { code: retag('export async function up() {', '  await retagShops();', '}'), filename: 'src/code-migrations/12-retag.ts' },
    // CommonJS: `module.exports = { up }`, `exports.up = …`
    { code: retag('const up = retagShops;', 'module.exports = { up };'), filename: 'db/dataMigrations/0007-retag.js' },
    { code: retag('exports.up = retagShops;'), filename: 'db/migrations/0008-retag.js' },
  ],
  invalid: [
    // the folder's runner (no `up`): judged
    {
      code: retag('export async function runAll() {', '  await retagShops();', '}'),
      filename: 'packages/shops/migrations/index.js',
      errors: [rewrite],
    },
    // `up` exported outside a migrations folder: a service module with an `up` method of its own
    { code: retag('export default { up: retagShops };'), filename: 'packages/shops/src/tags.js', errors: [rewrite] },
    // a migrations folder, but `up` is only a local name
    {
      code: retag('const up = retagShops;', 'export { retagShops };', 'up();'),
      filename: 'packages/shops/migrations/4.js',
      errors: [rewrite],
    },
  ],
});

ruleTester.run('no-unguarded-schedule (migration steps)', scheduleRule, {
  valid: [{ code: batches('export const up = copyBatches;'), filename: 'packages/db/code-migrations/7-series.ts' }],
  invalid: [
    {
      code: batches('export const run = copyBatches;'),
      filename: 'packages/db/code-migrations/migrate.ts',
      errors: [timer('migrate', 'export const run = copyBatches;')],
    },
    {
      code: batches('export const up = copyBatches;'),
      filename: 'packages/db/src/series.ts',
      errors: [timer('series', 'export const up = copyBatches;')],
    },
  ],
});
