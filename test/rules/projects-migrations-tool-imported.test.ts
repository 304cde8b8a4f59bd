// no-in-app-migrations on a module that starts nothing when loaded and that only a tool imports
// (a benchmark script that refills the tables): its schema writes run where that script calls it,
// on no replica's start. The same module imported by the server is reported; so is one only tests
// import (the app may load such a module another way, by a folder an autoloader reads).
import { describe, expect, test } from 'vitest';
import { lintProjectFile } from './lint-project.js';

const findings = (file: string) => lintProjectFile('migrations-tool-imported', file, ['no-in-app-migrations']);

describe('modules only tools import', () => {
  test('a reset helper only a benchmark script imports is not reported', async () => {
    expect(await findings('src/store/refill-tickets.js')).toEqual([]);
  });

  test('the same shape imported by the server is', async () => {
    expect(await findings('src/store/prepare-tables.js')).toEqual([
      'replica-guard/no-in-app-migrations src/store/prepare-tables.js:4:9 schemaWriteCall',
      'replica-guard/no-in-app-migrations src/store/prepare-tables.js:5:9 schemaWriteCall',
    ]);
  });

  test('a helper only tests import keeps its finding', async () => {
    expect(await findings('src/store/wipe-bookings.js')).toEqual([
      'replica-guard/no-in-app-migrations src/store/wipe-bookings.js:4:9 schemaWriteCall',
    ]);
  });
});
