import { ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

// A helper that stops unless it runs under tests (`if (!isTest()) throw …`) before it rebuilds the
// schema: outside a test run it throws, so no replica's start gets to the write. A guard against
// production only, one after the write, or one with an `else` leaves the write on other paths.
const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const call = (line: number, column: number) => ({ messageId: 'schemaWriteCall' as const, line, column });

/** A service whose `rebuild()` runs `before`, then re-synchronises the schema. */
const rebuild = (...before: string[]) =>
  lines(
    "import { DataSource } from 'typeorm';",
    "import { underJest } from '../support/env';",
    'export class CatalogueStore {',
    '  constructor(private readonly source: DataSource) {}',
    '  async rebuild() {',
    ...before.map((statement) => `    ${statement}`),
    '    await this.source.dropDatabase();',
    '    await this.source.synchronize();',
    '  }',
    '}',
  );

ruleTester.run('no-in-app-migrations (code that runs only under tests)', rule, {
  valid: [
    rebuild("if (process.env.NODE_ENV !== 'test') throw new Error('only in tests');"),
    rebuild('if (!underJest() || !isTestEnv()) {', "  console.error('refusing to rebuild');", "  throw new Error('only in tests');", '}'),
    rebuild("if (config.env != 'testing') return;"),
    rebuild('if (!config.isTest) throw new Error("tests only");'),
  ],
  invalid: [
    // production only: staging and the rest still rebuild
    { code: rebuild("if (process.env.NODE_ENV === 'production') throw new Error('not in production');"), errors: [call(8, 11)] },
    // the branch goes on
    { code: rebuild("if (process.env.NODE_ENV !== 'test') console.warn('rebuilding outside tests');"), errors: [call(8, 11)] },
    // an else: the guard is a choice, not a stop
    { code: rebuild("if (!config.isTest) throw new Error('tests only');", 'else console.log("rebuilding");'), errors: [call(9, 11)] },
    // the guard comes after the write
    {
      code: lines(
        "import { DataSource } from 'typeorm';",
        'export async function rebuild(source: DataSource) {',
        '  await source.synchronize();',
        "  if (process.env.NODE_ENV !== 'test') throw new Error('only in tests');",
        '}',
      ),
      errors: [call(3, 9)],
    },
  ],
});
