// A project's migration steps called one by one at start-up, whose bodies cannot be read (the
// module is missing, or the file is linted alone): `await migrateSessionColumn()`,
// `await migrateColumns()`, `await migrations()` in a server plugin. The name says it migrates
// one part of the database; what makes it a schema or data migration of the shared database, not
// of a settings file or of one row, is all in view: nothing to migrate is handed to it (no
// arguments, or only a database handle), the file talks to a database (it imports a driver, an
// ORM or the project's `db` module), and the call is not made while serving a request (analysis/request-handler-around.ts).
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../../analysis/detect-context.js';
import { projectFunctionOf } from '../../analysis/modules/index.js';
import { moduleBindings } from '../../analysis/imports/module-bindings.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { servesRequest } from '../../analysis/request-handler-around.js';
import { DATABASE_MODULE_SPECIFIER } from '../../src/knowledge/database-access.js';
import { isDatabaseArgument } from './runner-calls.js';

/** `migrate` and a word after it (`migrateSessionColumn`, `migrate_columns`), or the plural alone (`migrations()`). */
const STEP_NAME = /^(?:migrate[A-Z0-9_]|migrations$)/;

/** The step a call runs, shown as called (`migrateColumns()`), or undefined; a callee whose body a module shows is judged by it. */
export function namedMigrationStep(context: DetectContext, call: TSESTree.CallExpression): string | undefined {
  const sourceCode = context.sourceCode;
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'Identifier' || !STEP_NAME.test(callee.name) || !call.arguments.every(isDatabaseArgument)) return undefined;
  const bindings = moduleBindings(sourceCode.ast);
  if (bindings.get(callee.name) === undefined) return undefined;
  for (const specifier of bindings.values())
    if (DATABASE_MODULE_SPECIFIER.test(specifier))
      return servesRequest(context, call) || projectFunctionOf(context, callee) !== undefined ? undefined : `${callee.name}()`;
  return undefined;
}
