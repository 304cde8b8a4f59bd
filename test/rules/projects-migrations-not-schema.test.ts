// no-in-app-migrations on runners named for migrations whose body says what they migrate, and on
// files only the test tooling's package.json scripts run (fixture test/rules/projects/migrations-not-schema).
import { describe, expect, test } from 'vitest';
import { lintProjectFile } from './lint-project.js';

const findings = (file: string) => lintProjectFile('migrations-not-schema', file, ['no-in-app-migrations']);

describe('runners named for migrations, judged by the body they reach', () => {
  test('a runner in another module that rewrites a preferences file, with no database in sight, is not reported', async () => {
    expect(await findings('src/preferences/store.ts')).toEqual([]);
  });

  test('runners that name a database, import one, send DDL a call away, are given one, or cannot be read stay reported', async () => {
    expect(await findings('src/server.ts')).toEqual([
      'replica-guard/no-in-app-migrations src/server.ts:9:9 schemaWriteCall',
      'replica-guard/no-in-app-migrations src/server.ts:10:9 schemaWriteCall',
      'replica-guard/no-in-app-migrations src/server.ts:11:9 schemaWriteCall',
      'replica-guard/no-in-app-migrations src/server.ts:12:9 schemaWriteCall',
      'replica-guard/no-in-app-migrations src/server.ts:13:9 schemaWriteCall',
    ]);
  });
});

describe('files the test tooling runs', () => {
  test('a file only a test:* or pretest script runs is test code', async () => {
    expect(await findings('scripts/seed-test-db.ts')).toEqual([]);
    expect(await findings('scripts/reset-fixtures.ts')).toEqual([]);
  });

  test('a test script that a non-test script runs by name is not test code', async () => {
    expect(await findings('scripts/warmup.ts')).toEqual(['replica-guard/no-in-app-migrations scripts/warmup.ts:8:9 schemaWriteCall']);
  });
});

describe('factories that hand out migration tools (fixture test/rules/projects/migrations-factory-definitions)', () => {
  const inProject = (file: string) => lintProjectFile('migrations-factory-definitions', file, ['no-in-app-migrations']);

  test('building an object whose methods migrate runs none of them: the factory call is not reported', async () => {
    expect(await inProject('src/database.ts')).toEqual([
      'replica-guard/no-in-app-migrations src/database.ts:10:11 schemaWriteCall',
      'replica-guard/no-in-app-migrations src/database.ts:11:11 schemaWriteCall',
    ]);
  });
});
