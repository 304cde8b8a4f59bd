// no-read-then-write on a refill or a decay: a value and a timestamp read, a new value computed
// from both (in place or by a function of the module that does arithmetic) and written back.
// Not reported: a module function that builds a string (`titleCase(doc.title)`), a refill from
// values the request gave.
import { jsRuleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof jsRuleTester.run<string, readonly unknown[]>>[1];
const error = (field: string, line: number, column: number) => ({ messageId: 'sequelize', data: { field }, line, column });

/** A bucket refilled by the module's `refill` (lines 2–5), then `body` in `take` (from line 8). */
const bucket = (...body: string[]) =>
  lines(
    "import { Bucket } from '../models/bucket.js';",
    'function refill(tokens, refilledAt, now) {',
    '  const elapsed = (now - refilledAt) / 1000;',
    '  return Math.min(20, tokens + elapsed * 0.5);',
    '}',
    'const titleCase = (text) => text.charAt(0).toUpperCase() + text.slice(1);',
    'export async function take(key, input) {',
    '  const bucket = await Bucket.findOne({ key });',
    '  const now = Date.now();',
    ...body.map((l) => `  ${l}`),
    '  await bucket.save();',
    '}',
  );

jsRuleTester.run('no-read-then-write (refills and decays)', rule, {
  valid: [
    bucket('bucket.label = titleCase(bucket.label);'),
    bucket('bucket.tokens = refill(input.tokens, input.at, now);', 'bucket.refilledAt = now;'),
  ],
  invalid: [
    {
      code: bucket(
        'const available = refill(bucket.tokens, bucket.refilledAt, now);',
        'if (available < 1) return false;',
        'bucket.tokens = available - 1;',
        'bucket.refilledAt = now;',
      ),
      errors: [error('tokens', 14, 16)],
    },
    {
      code: bucket('bucket.tokens = Math.min(20, bucket.tokens + ((now - bucket.refilledAt) / 1000) * 0.5) - 1;'),
      errors: [error('tokens', 11, 16)],
    },
  ],
});
