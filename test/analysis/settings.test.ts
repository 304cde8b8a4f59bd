// Settings resolve to one object per content: every cache keyed on the result (glob matchers,
// word patterns) must stay warm when ESLint or a config hands over a new but equal object, and
// above all when there are no settings at all (the README's configuration).
import { describe, expect, test } from 'vitest';
import { readSettings } from '../../analysis/settings.js';

describe('readSettings', () => {
  test('no settings: the same resolved object on every call', () => {
    const first = readSettings(undefined);
    expect(readSettings({})).toBe(first);
    expect(readSettings({ other: 1 })).toBe(first);
    expect(readSettings(undefined).migrateEntrypoints).toBe(first.migrateEntrypoints);
  });

  test('equal settings in new objects resolve to the same object; different ones do not', () => {
    const a = readSettings({ 'replica-guard': { service: 'billing', guards: ['withLease'] } });
    const b = readSettings({ 'replica-guard': { service: 'billing', guards: ['withLease'] } });
    const c = readSettings({ 'replica-guard': { service: 'orders' } });
    expect(b).toBe(a);
    expect(c).not.toBe(a);
    expect(c.service).toBe('orders');
  });

  test('bad settings still fail with a message that names the setting', () => {
    expect(() => readSettings({ 'replica-guard': { migrateEntrypoints: 'cmd/migrate.ts' } })).toThrow(
      "settings['replica-guard'].migrateEntrypoints must be an array of strings",
    );
  });
});
