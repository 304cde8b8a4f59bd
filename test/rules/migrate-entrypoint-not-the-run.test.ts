// Files named like a migrate entrypoint that are not the run every pod starts: a module that only
// re-exports another (a generated CommonJS interop shim, an ESM barrel), and an operator's
// command class of an admin CLI (oclif, clipanion). A launcher that requires the run for its
// effects, and a command class that a package.json migrate script runs, are still checked.
import { ruleTester } from './rule-tester.js';
import { migrateEntrypoint, type MigrateEntrypointMessageIds } from '../../rules/migrate-entrypoint.js';

const lines = (...l: string[]) => l.join('\n');
const rule = migrateEntrypoint as unknown as Parameters<typeof ruleTester.run<MigrateEntrypointMessageIds, readonly unknown[]>>[1];
const COMMONJS = { sourceType: 'commonjs' } as never;
const noLock = { messageId: 'noLock' as const, line: 1, column: 1 };
const swallowed = (line: number, column: number) => ({ messageId: 'swallowedFailure' as const, line, column });

const SHIM = lines(
  "'use strict';",
  "const target = require('../build/migrate.js');",
  "const value = target && target.__esModule && 'default' in target ? target.default : target;",
  'module.exports = value;',
  'for (const key of Object.keys(target)) {',
  "  if (key === 'default' || Object.prototype.hasOwnProperty.call(value, key)) continue;",
  '  try {',
  '    Object.defineProperty(value, key, { get: () => target[key], enumerable: true });',
  '  } catch {}',
  '}',
);

const COMMAND = lines(
  "const { Command, Flags } = require('@oclif/core');",
  "const { upgradeSchema } = require('@acme/store/upgrade');",
  'class UpgradeCommand extends Command {',
  '  async run() {',
  '    const { flags } = await this.parse(UpgradeCommand);',
  '    for (const tenant of flags.tenants) {',
  '      try {',
  '        await upgradeSchema(tenant);',
  '      } catch (error) {',
  '        console.error(error);',
  '      }',
  '    }',
  '  }',
  '}',
  "UpgradeCommand.description = 'Upgrade the schema. Stop the server first.';",
  'module.exports = UpgradeCommand;',
);

ruleTester.run('migrate-entrypoint (files that are not the run)', rule, {
  valid: [
    // a generated CommonJS shim in front of the built module
    { code: SHIM, filename: 'packages/store/cjs/migrate.cjs', languageOptions: COMMONJS },
    // the same with a compiler's interop helper
    {
      code: lines(
        "'use strict';",
        "Object.defineProperty(exports, '__esModule', { value: true });",
        "__exportStar(require('./lib/migrate'), exports);",
      ),
      filename: 'src/migrate.js',
      languageOptions: COMMONJS,
    },
    // an ESM barrel
    { code: lines("export * from './runner/migrate.js';", "export { default } from './runner/migrate.js';"), filename: 'src/migrate.ts' },
    // an admin CLI's command class, run by hand
    { code: COMMAND, filename: 'packages/cli/src/commands/migrate.js', languageOptions: COMMONJS },
    {
      code: lines(
        "import { Command } from 'clipanion';",
        "import { migrateAll } from '../store';",
        'export class MigrateCommand extends Command {',
        "  static paths = [['migrate']];",
        '  async execute() {',
        '    await migrateAll();',
        '  }',
        '}',
      ),
      filename: 'tools/admin/migrate.ts',
    },
  ],
  invalid: [
    // a launcher starts the run for its effects: it is the entrypoint
    {
      code: lines("require('./register');", "const run = require('../build/migrate.js');", 'module.exports = run;'),
      filename: 'bin/migrate.js',
      languageOptions: COMMONJS,
      errors: [noLock],
    },
    // a shim that also runs something is not only a shim
    {
      code: lines("const { migrate } = require('../build/migrate.js');", 'module.exports = migrate;', 'migrate().catch(() => {});'),
      filename: 'cjs/migrate.cjs',
      languageOptions: COMMONJS,
      errors: [noLock, swallowed(3, 17)],
    },
    // a class extending the project's own `Command` is not a command-line framework's (knex locks its own runs: no `noLock`)
    {
      code: lines(
        "import { Command } from './command';",
        "import knex from 'knex';",
        'export class Migrate extends Command {}',
        'const db = knex({ client: "pg", connection: process.env.DATABASE_URL });',
        'await db.migrate.latest();',
      ),
      filename: 'src/migrate.ts',
      errors: [{ messageId: 'appUrl', line: 4, column: 45 }],
    },
  ],
});
