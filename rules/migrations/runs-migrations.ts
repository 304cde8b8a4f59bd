// Whether a file that is named like a migrate entrypoint runs schema migrations at all. Teams
// name many scripts `migrate*` — a one-off copy of keys between two stores, a rename of rows in a
// migrations table, a data backfill — and such a script holds no lock because it needs none: it
// writes no schema and is not run by every pod. The entrypoint's findings (lock, URL, failure
// handling) are only made where the file visibly runs migrations: a known migrator, replica-guard's
// `runMigrations`, a call named for a migration run or a run verb on a migrator (`umzug.up()`),
// schema DDL in its strings, or a module named for migrations imported.
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../utils/create-rule.js';
import { calleeName } from '../../analysis/ast/callee-name.js';
import { isMigratorVerbCall } from './migrator-verb-calls.js';
import {
  MIGRATION_MODULE_SPECIFIER,
  SCHEMA_DDL,
  mayNameMigrationRun,
  namesMigrationRunner,
  prismaSchemaCommand,
} from '../../src/knowledge/migrators.js';
import { MIGRATOR_CLI_COMMAND } from '../../src/knowledge/migration-scripts.js';
import { isMigrationFolderName } from '../../src/knowledge/file-conventions.js';
import { ADVISORY_LOCK_SQL, migratorRuns } from './self-locking.js';

/** An advisory lock taken in SQL (`pg_advisory_lock(…)`): the file serialises something, a migration run by its own account. */
export const LOCK_SQL = ADVISORY_LOCK_SQL;
const PATH_JOINERS: ReadonlySet<string> = new Set(['join', 'resolve']);

/** Whether a string names where migrations are kept: a path holding such a folder, or that folder's name joined into a path. */
function namesMigrationsFolder({ node, text }: { node: TSESTree.Node; text: string }): boolean {
  // A path (`'./db/migrations'`, `'../migrations/001.sql'`), or a folder's name joined into one
  // (`path.join(__dirname, 'migrations')`): a table called `migrations` is neither.
  if (text.includes('/') || text.includes('\\')) {
    const segments = text.split(/[\\/]/);
    // A file at the end (`001_init.sql`, `migration-report.json`) is not a folder.
    if (segments.at(-1)?.includes('.')) segments.pop();
    return segments.some(isMigrationFolderName);
  }
  const parent = node.parent;
  return isMigrationFolderName(text) && parent?.type === 'CallExpression' && PATH_JOINERS.has(calleeName(parent) ?? '');
}

/** Whether the entrypoint file runs schema migrations (see above). replica-guard's `runMigrations` is a runner by its name. */
export function runsMigrations(
  context: DetectContext,
  program: TSESTree.Program,
  calls: readonly TSESTree.CallExpression[],
  strings: ReadonlyArray<{ node: TSESTree.Node; text: string }>,
): boolean {
  const evidence = (string: { node: TSESTree.Node; text: string }): boolean =>
    SCHEMA_DDL.test(string.text) ||
    LOCK_SQL.test(string.text) ||
    MIGRATOR_CLI_COMMAND.test(string.text) ||
    prismaSchemaCommand(string.text) !== undefined ||
    namesMigrationsFolder(string);
  if (strings.some(evidence)) return true;
  for (const statement of program.body)
    if (statement.type === 'ImportDeclaration' && MIGRATION_MODULE_SPECIFIER.test(statement.source.value)) return true;
  for (const call of calls) {
    const name = calleeName(call);
    if (name !== undefined && (namesMigrationRunner(name) || mayNameMigrationRun(name))) return true;
    // A migrator's run verb on a receiver named for one (`umzug.up()`), built in another module.
    if (isMigratorVerbCall(call)) return true;
    const [argument] = call.arguments;
    // `require('./migrations/run')`
    if (
      name === 'require' &&
      argument?.type === 'Literal' &&
      typeof argument.value === 'string' &&
      MIGRATION_MODULE_SPECIFIER.test(argument.value)
    )
      return true;
  }
  return (
    migratorRuns(
      context,
      program,
      calls,
      strings.map((string) => string.text),
    ).length > 0
  );
}
