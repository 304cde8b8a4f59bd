// Settings resolve to one object per content: every cache keyed on the result (glob matchers,
// word patterns) must stay warm when ESLint or a config hands over a new but equal object, and
// above all when there are no settings at all (the README's configuration).
import { describe, expect, test } from 'vitest';
import { matchesAny, mayMatchAny, readSettings } from '../../analysis/settings.js';

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

describe('mayMatchAny: the string search before the glob match', () => {
  const cwd = '/repo';
  const paths = [
    'packages/orders/migrations/00021_add_index.ts',
    'packages/orders/src/migrate.ts',
    'services/billing/cmd/migrate/main.ts',
    'scripts/run-migrations.mjs',
    'scripts/migrate-db.ts',
    'bin/migrate-up',
    'db/seed-3.ts',
    'db/seed-x.ts',
    'src/jobs/sweep.ts',
    'tools/db/apply.js',
    'tools/x-migrate.js',
    'src/setup-db.ts',
    'packages/a/db-setup.ts',
    'seed.ts',
  ];
  const globLists = [
    readSettings(undefined).migrateEntrypoints,
    readSettings(undefined).migrationFiles,
    ['**/cmd/migrate.{ts,js}', '**/scripts/migrate.{ts,js}'],
    ['db/seed-{1..5}.ts', 'tools/[a-d]b/*.js', '**/+(apply|run).js'],
    // Alternatives that share a part (`setup`) and one that shares none (`seed.ts`).
    ['**/{setup-db,db-setup,seed}.ts', 'tools/*-migrate.js'],
  ];

  test('never says no where the globs match (it only skips the glob match)', () => {
    for (const globs of globLists) {
      for (const path of paths) {
        if (matchesAny(`${cwd}/${path}`, cwd, globs))
          expect(mayMatchAny(`${cwd}/${path}`, globs), `${path} ~ ${globs.join(' ')}`).toBe(true);
      }
    }
    expect(matchesAny(`${cwd}/db/seed-3.ts`, cwd, globLists[3]!)).toBe(true);
    expect(matchesAny(`${cwd}/tools/db/apply.js`, cwd, globLists[3]!)).toBe(true);
    for (const path of ['tools/x-migrate.js', 'src/setup-db.ts', 'packages/a/db-setup.ts', 'seed.ts'])
      expect(matchesAny(`${cwd}/${path}`, cwd, globLists[4]!), path).toBe(true);
  });

  test('the default entrypoint globs skip ordinary files and migration folders without a glob match', () => {
    const entrypoints = readSettings(undefined).migrateEntrypoints;
    expect(mayMatchAny(`${cwd}/packages/orders/migrations/00021_add_index.ts`, entrypoints)).toBe(false);
    expect(mayMatchAny(`${cwd}/src/jobs/sweep.ts`, entrypoints)).toBe(false);
    expect(mayMatchAny(`${cwd}/scripts/run-migrations.mjs`, entrypoints)).toBe(true);
  });
});
