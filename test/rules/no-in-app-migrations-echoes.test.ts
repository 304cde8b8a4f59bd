// A summary of the options a function was given (a log context, a diagnostics record) copies
// `migrationsRun` / `synchronize` from its parameter: it decides nothing, the caller's options do.
// The same key read from a module's own configuration, or set from a parameter under another name,
// is still decided here.
import { ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const option = (line: number, column: number) => ({ messageId: 'schemaWriteOption' as const, line, column });

const SUMMARY = (body: string) =>
  lines(
    "import type { DataSourceOptions } from 'typeorm';",
    'export function describeOptions(options: DataSourceOptions): Record<string, unknown> {',
    body,
    '}',
  );

ruleTester.run('no-in-app-migrations (options echoed from a parameter)', rule, {
  valid: [
    // the parameter's own values, read directly or through a renaming `const`
    SUMMARY("  return { type: 'postgres', migrationsRun: options.migrationsRun, synchronize: options.synchronize };"),
    SUMMARY(
      lines(
        '  const raw = options as unknown as Record<string, unknown>;',
        "  return { type: 'postgres', host: raw.host, migrationsRun: raw.migrationsRun, synchronize: raw.synchronize };",
      ),
    ),
  ],
  invalid: [
    // a module's own configuration decides the value here
    {
      code: lines(
        "import { settings } from './settings';",
        "export const options = { type: 'postgres', synchronize: settings.synchronize, entities: [] };",
      ),
      errors: [option(2, 44)],
    },
    // the parameter's value under another key is a decision, not an echo
    {
      code: SUMMARY("  return { type: 'postgres', synchronize: options.migrationsRun };"),
      errors: [option(3, 30)],
    },
  ],
});
