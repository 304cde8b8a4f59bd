// A schema write inside an exported wrapper that only tools and tests call: `undoLastMigration()`
// for an admin CLI's `db revert`, `migrateTo(version)` for a test harness, a reset used by the
// test set-up. The harm the rule is about is every replica migrating as it starts; a wrapper whose
// every caller in the package is test code, a migrate entrypoint, a one-shot script or an
// operator's command is on no replica's start path. Asked only of a finding about to be reported,
// and only when the wrapper is exported and its own module never calls it: the callers are read
// from the package's files (analysis/modules/importers.ts, tests included). No caller found (a
// sibling package may import it), a caller that cannot be read, or one caller in service code
// keeps the report.
// The same holds for TypeORM options in the data-source file a package.json script hands to
// TypeORM's CLI (`typeorm migration:run -d src/data-source.ts`): the CLI turns `synchronize` and
// `migrationsRun` off in what it reads, so they act only where the app imports that file; a file
// no module of the package imports, or only tools and tests do, starts nothing on a replica.
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../utils/create-rule.js';
import { callsOfExport, modulesImporting } from '../../analysis/modules/importers.js';
import { isTypeOrmCliDataSource } from './package-scripts.js';
import { declaredVariables } from '../../analysis/ast/declared-variables.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { isToolOrTestModule } from './exempt-file.js';

/** The exported top-level function a node sits in (`export function undo() {…}`, `export const undo = async () => {…}`): its declaration and name. */
function exportedFunctionAround(node: TSESTree.Node): { declaration: TSESTree.Node; name: string } | undefined {
  let child: TSESTree.Node = node;
  for (let parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (parent.type !== 'Program') continue;
    if (child.type !== 'ExportNamedDeclaration' || !child.declaration) return undefined;
    const declared = child.declaration;
    if (declared.type === 'FunctionDeclaration' && declared.id) return { declaration: declared, name: declared.id.name };
    if (declared.type !== 'VariableDeclaration' || declared.declarations.length !== 1) return undefined;
    const [declarator] = declared.declarations;
    const init = declarator?.init && unwrapExpression(declarator.init);
    if (declarator?.id.type !== 'Identifier' || (init?.type !== 'ArrowFunctionExpression' && init?.type !== 'FunctionExpression'))
      return undefined;
    return { declaration: declarator, name: declarator.id.name };
  }
  return undefined;
}

/** Whether the finding at `node` sits in an exported wrapper that only tools and tests call (see above). */
export function calledOnlyByTools(context: DetectContext, node: TSESTree.Node): boolean {
  const wrapper = exportedFunctionAround(node);
  if (!wrapper) return false;
  // Called in its own module (by the start path, or by a function that is): not a tool's wrapper.
  const own = declaredVariables(context.sourceCode, wrapper.declaration, wrapper.name);
  if (own.some((variable) => variable.references.some((reference) => !reference.init))) return false;
  const callers = callsOfExport(context, wrapper.name, { includeTests: true });
  return callers !== undefined && callers.length > 0 && callers.every((caller) => isToolOrTestModule(caller.module.context));
}

/** Whether the linted file is a data source only TypeORM's CLI reads: a script hands it to the CLI, and only tools and tests import it. */
function isCliOnlyDataSource(context: DetectContext): boolean {
  if (!isTypeOrmCliDataSource(context.physicalFilename ?? context.filename)) return false;
  const importers = modulesImporting(context);
  return importers !== undefined && importers.every((module) => isToolOrTestModule(module.context));
}

/**
 * `report`, dropping the calls that sit in a wrapper only tools and tests call (asked once per
 * wrapper), and the options of a data source only TypeORM's CLI reads (asked once per file).
 */
export function outsideToolWrappers<Report extends (descriptor: never) => void>(context: DetectContext, report: Report): Report {
  const answers = new Map<TSESTree.Node | undefined, boolean>();
  let cliOnly: boolean | undefined;
  return ((descriptor: { messageId: string; node: TSESTree.Node }) => {
    if (descriptor.messageId === 'schemaWriteOption' && (cliOnly ??= isCliOnlyDataSource(context))) return;
    if (descriptor.messageId === 'schemaWriteCall' || descriptor.messageId === 'schemaWriteCommand') {
      const key = exportedFunctionAround(descriptor.node)?.declaration;
      let onlyTools = answers.get(key);
      if (onlyTools === undefined) answers.set(key, (onlyTools = key !== undefined && calledOnlyByTools(context, descriptor.node)));
      if (onlyTools) return;
    }
    report(descriptor as never);
  }) as unknown as Report;
}
