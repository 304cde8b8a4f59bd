// Start-up steps named for laying out the schema, called one by one as the service starts:
// `await ensureInvoiceColumns()`, `await createReportTables(pool)`, `await setupAuditTriggers()`.
// Each sends DDL (`ALTER TABLE … ADD COLUMN IF NOT EXISTS`, `CREATE TABLE IF NOT EXISTS`, a trigger
// and its function) to the shared database on every replica that starts. Asked of a function
// imported from a project module: when that module can be read, its body decides (a schema write
// or DDL in it, `runsSchemaWritesOrDdl`); when it cannot (the file is linted alone, the module is
// missing), the name does, as for a migration step (named-steps.ts) — handed nothing or only a
// database handle, in a file that talks to a database, not while serving a request, not in the
// SQLite branch of a start. A function of this file is judged where its DDL stands (start-ddl.ts).
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../../analysis/detect-context.js';
import { projectFunctionOf } from '../../analysis/modules/index.js';
import { moduleBindings } from '../../analysis/imports/module-bindings.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { servesRequest } from '../../analysis/request-handler-around.js';
import { DATABASE_MODULE_SPECIFIER } from '../../src/knowledge/database-access.js';
import { isProjectModuleSpecifier } from '../../src/knowledge/project-modules.js';
import { LAYOUT_STEP_NAME, LAYOUT_STEP_STEMS, LAYOUT_STEP_WORDS } from '../../src/knowledge/layout-steps.js';
import { isDatabaseArgument } from './runner-calls.js';
import { runsInSqliteBranch } from './sqlite-branch.js';
import { runsSchemaWritesOrDdl } from './cross-file.js';
import { callsNamed } from './called-names.js';

const isLayoutStepName = (name: string): boolean => LAYOUT_STEP_NAME.test(name);

/** The calls of the file named for a layout step (`ensureTeamColumns()`), looked for only in a file that holds one of the stems. */
function layoutStepCalls(sourceCode: Readonly<TSESLint.SourceCode>): TSESTree.CallExpression[] {
  const text = sourceCode.text;
  return LAYOUT_STEP_WORDS.some((word) => text.includes(word)) ? callsNamed(sourceCode, LAYOUT_STEP_STEMS, isLayoutStepName) : [];
}

/** Each call of a layout step that lays out the shared schema at start, with the name it is reported by (`ensureTeamColumns()`). */
export function layoutStepRuns(context: DetectContext): Map<TSESTree.CallExpression, string> {
  const out = new Map<TSESTree.CallExpression, string>();
  for (const call of layoutStepCalls(context.sourceCode)) {
    const runner = layoutStepRunner(context, call);
    if (runner !== undefined) out.set(call, runner);
  }
  return out;
}

/** The step a call runs, shown as called (`ensureTeamColumns()`), when it lays out the shared schema at start; else undefined. */
function layoutStepRunner(context: DetectContext, call: TSESTree.CallExpression): string | undefined {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'Identifier' || !isLayoutStepName(callee.name) || !call.arguments.every(isDatabaseArgument)) return undefined;
  const bindings = moduleBindings(context.sourceCode.ast);
  if (!isProjectModuleSpecifier(bindings.get(callee.name))) return undefined;
  if (servesRequest(context, call) || runsInSqliteBranch(call, context.sourceCode)) return undefined;
  const fn = projectFunctionOf(context, callee);
  if (fn) return fn.module.path !== context.filename && runsSchemaWritesOrDdl(fn) ? `${callee.name}()` : undefined;
  for (const specifier of bindings.values()) if (DATABASE_MODULE_SPECIFIER.test(specifier)) return `${callee.name}()`;
  return undefined;
}
