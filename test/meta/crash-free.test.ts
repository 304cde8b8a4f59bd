// The rules never throw on real code: the scheduler libraries' own sources (full of timers and
// cron calls the rules must read without tripping) linted with every rule on. The whole corpus
// (typeorm, drizzle, kysely, eslint…) is `npm run crash-test`.
import { expect, test } from 'vitest';
import { crashTest } from '../../scripts/crash-test.js';

test('every rule lints the scheduler libraries without an exception', () => {
  const report = crashTest(['node-cron', 'cron', 'croner', 'node-schedule', 'toad-scheduler', 'ioredis']);
  expect(report.packages.length).toBeGreaterThanOrEqual(5);
  expect(report.files).toBeGreaterThan(50);
  expect(report.crashes.map((c) => `${c.file}: ${c.error.split('\n')[0]}`)).toEqual([]);
  expect(report.parseFailures).toBe(0);
}, 120_000);
