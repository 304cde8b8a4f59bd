// no-read-then-write through a utility library's conversion: a Redis counter read through lodash's
// `toNumber` (imported per method, by name, or as the whole library) and written back incremented
// is the read value changed in JavaScript, as through `Number(x)`. A function of the same name from
// the project's own module, or another lodash function, is not a conversion.
import { noReadThenWrite } from '../../rules/no-read-then-write.js';
import { jsRuleTester, ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');

/** A rate limit reading the count through `convert` (imported by `importLine`) and setting it one higher. */
const limit = (importLine: string, convert: string) =>
  lines(
    importLine,
    "import { redis } from './redis';",
    'export async function checkRateLimit(ip: string, max: number) {',
    '  const key = `rl:${ip}`;',
    `  const count: number = ${convert}(await redis.get(key)) || 0;`,
    "  if (count >= max) throw new Error('Too many requests');",
    "  await redis.set(key, 1 + count, 'EX', 60);",
    '}',
  );

const reported = (importLine: string, convert: string) => ({
  code: limit(importLine, convert),
  errors: [{ messageId: 'redis' as const, data: { field: 'key' }, line: 7, column: 15 }],
});

ruleTester.run('no-read-then-write (library conversions)', noReadThenWrite, {
  valid: [
    // The project's own `toNumber`: what it does is not known here.
    limit("import { toNumber } from './numbers';", 'toNumber'),
    // Another lodash function: not a conversion of the value.
    limit("import { identity } from 'lodash';", 'identity'),
  ],
  invalid: [
    reported("import * as _toNumber from 'lodash/toNumber';", '_toNumber'),
    reported("import { toNumber } from 'lodash';", 'toNumber'),
    reported("import _ from 'lodash';", '_.toNumber'),
  ],
});

jsRuleTester.run('no-read-then-write (library conversions, CommonJS)', noReadThenWrite, {
  valid: [],
  invalid: [
    {
      code: lines(
        "const toNumber = require('lodash.tonumber');",
        "const { redis } = require('./redis');",
        'async function hit(key) {',
        '  const n = toNumber(await redis.get(key));',
        '  await redis.set(key, n + 1);',
        '}',
      ),
      errors: [{ messageId: 'redis', data: { field: 'key' }, line: 5, column: 15 }],
    },
  ],
});
