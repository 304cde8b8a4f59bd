// The plugin's configs and what its messages promise: `strict` is `recommended` plus every
// schedule reported; both carry their own files; the advisory-lock and claim messages say what
// breaks for each way a service connects (a pool, PgBouncer, a pinned client).
import { Linter } from 'eslint';
import { describe, expect, test } from 'vitest';
import plugin from '../../rules/index.js';

const { recommended, strict } = plugin.configs;

describe('configs', () => {
  test('strict is recommended plus no-unguarded-schedule with reportAll', () => {
    const { 'replica-guard/no-unguarded-schedule': schedule, ...strictRest } = strict.rules;
    const { 'replica-guard/no-unguarded-schedule': recommendedSchedule, ...recommendedRest } = recommended.rules;
    expect(schedule).toEqual(['error', { reportAll: true }]);
    expect(recommendedSchedule).toBe('error');
    expect(strictRest).toEqual(recommendedRest);
    expect(Object.keys(recommended.rules).sort()).toEqual(
      Object.keys(plugin.rules)
        .map((name) => `replica-guard/${name}`)
        .sort(),
    );
  });

  test('each carries its name, its files and the plugin', () => {
    for (const [name, config] of Object.entries(plugin.configs)) {
      expect(config.name).toBe(`replica-guard/${name}`);
      expect(config.files).toEqual(['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}']);
      expect(config.plugins['replica-guard']).toBe(plugin);
    }
  });

  // A timer that only clears an in-process cache: per-replica work, quiet unless reportAll.
  const source = ['const cache = new Map();', 'setInterval(() => {', '  cache.clear();', '}, 60_000);', ''].join('\n');
  test.each([
    ['recommended', recommended, []],
    ['strict', strict, ['replica-guard/no-unguarded-schedule:2:13']],
  ])('%s on a timer that only touches in-process state', (_name, config, expected) => {
    const messages = new Linter({ configType: 'flat' }).verify(source, [config as Linter.Config], { filename: 'cache.js' });
    expect(messages.map((m) => `${m.ruleId}:${m.line}:${m.column}`)).toEqual(expected);
  });
});

describe('messages name what breaks for each connection kind', () => {
  test.each([
    ['no-session-advisory-lock', 'sessionLock', [/through a pool/i, /PgBouncer transaction pooling/, /pinned client/]],
    ['no-session-advisory-lock', 'sessionUnlock', [/through a pool/i, /PgBouncer transaction pooling/]],
    ['require-atomic-claim', 'nonAtomicClaim', [/through a pool/i, /PgBouncer/]],
  ] as const)('%s %s', (rule, messageId, patterns) => {
    const message = (plugin.rules[rule]!.meta.messages as Record<string, string>)[messageId]!;
    for (const pattern of patterns) expect(message).toMatch(pattern);
  });
});
