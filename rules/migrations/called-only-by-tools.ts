// A schema write inside an exported wrapper that only tools and tests call: `undoLastMigration()`
// for an admin CLI's `db revert`, `migrateTo(version)` for a test harness, a reset used by the
// test set-up. The harm the rule is about is every replica migrating as it starts; a wrapper whose
// every caller in the package is test code, a migrate entrypoint, a one-shot script or an
// operator's command is on no replica's start path. Asked only of a finding about to be reported,
// and only when the wrapper is exported and its own module never calls it: the callers are read
// from the package's files (analysis/modules/importers.ts, tests included). No caller found (a
// sibling package may import it), a caller that cannot be read, or one caller in service code
// keeps the report — unless the helper is shared by an operator's command and start paths that
// call it by a name the rule follows across files: then the finding is made at those calls.
// The same holds for TypeORM options in the data-source file a package.json script hands to
// TypeORM's CLI (`typeorm migration:run -d src/data-source.ts`): the CLI turns `synchronize` and
// `migrationsRun` off in what it reads, so they act only where the app imports that file; a file
// no module of the package imports, or only tools and tests do, starts nothing on a replica. So do
// those of a `new DataSource(…)` in TypeORM's CLI configuration file (`ormconfig.ts`) that no module
// imports: nothing but the CLI loads it since TypeORM 0.3.
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../utils/create-rule.js';
import { callsOfExport, modulesImporting } from '../../analysis/modules/importers.js';
import { isTypeOrmCliDataSource } from './package-scripts.js';
import { declaredVariables } from '../../analysis/ast/declared-variables.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { isToolOrTestModule } from './exempt-file.js';
import { CROSS_FILE_CANDIDATE } from '../../src/knowledge/migration-runs.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { nearestPackageJson } from '../../analysis/modules/nearest-package-json.js';
import { TYPEORM_CLI_CONFIG_NAME } from '../../src/knowledge/migration-scripts.js';
import { basename, dirname } from 'node:path';
import { startsNothing } from '../../analysis/ast/only-declares.js';
import { closureRunners, handedOutSlot } from './handed-out-closures.js';
import { projectPath } from '../../analysis/source/project-path.js';
import { isTestFilePath } from '../../src/knowledge/file-conventions.js';

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

/** Who calls an exported wrapper: a tool or a test, a start path reported at its own call, or service code otherwise (or callers out of reach). */
interface WrapperCallers {
  tools: boolean;
  startCalls: boolean;
  service: boolean;
}

/** Whether a call names its callee as the rule asks about across files (`await updateDb()`, `migrateLatest()`): the caller's file reports it there. */
function reportedAtCall(call: TSESTree.CallExpression): boolean {
  const callee = unwrapExpression(call.callee);
  const name = callee.type === 'Identifier' ? callee.name : callee.type === 'MemberExpression' ? memberPropertyName(callee) : undefined;
  return name !== undefined && CROSS_FILE_CANDIDATE.test(name);
}

const SERVICE: WrapperCallers = { tools: false, startCalls: false, service: true };

/**
 * Who calls the exported wrapper (see above), read from the package's modules. A wrapper its own
 * module calls only from another exported function (`updateDb()` calling `runMigrations(source)`)
 * is judged by that function's callers, one level up; any other call in its own module is the
 * start path's (or a function's that is).
 */
function wrapperCallers(context: DetectContext, wrapper: { declaration: TSESTree.Node; name: string }, depth: number): WrapperCallers {
  const own = declaredVariables(context.sourceCode, wrapper.declaration, wrapper.name).flatMap((v) => v.references.filter((r) => !r.init));
  const out: WrapperCallers = { tools: false, startCalls: false, service: false };
  const add = (more: WrapperCallers): void => {
    out.tools ||= more.tools;
    out.startCalls ||= more.startCalls;
    out.service ||= more.service;
  };
  for (const reference of own) {
    const around = depth === 0 ? exportedFunctionAround(reference.identifier) : undefined;
    if (!around || around.declaration === wrapper.declaration || reference.identifier.parent?.type !== 'CallExpression') return SERVICE;
    add(wrapperCallers(context, around, depth + 1));
  }
  const callers = callsOfExport(context, wrapper.name, { includeTests: true });
  if (callers === undefined || (callers.length === 0 && own.length === 0)) return SERVICE;
  for (const caller of callers) {
    if (isToolOrTestModule(caller.module.context)) out.tools = true;
    else if (caller.calls.every((use) => !use.handed && reportedAtCall(use.call))) out.startCalls = true;
    else return SERVICE;
  }
  return out;
}

/**
 * Whether the finding at `node` sits in an exported wrapper on no replica's start path: only tools
 * and tests call it, or it is a helper shared by an operator's command and start paths — a
 * `migrateLatest()` that a `db migrate` command and the server's start both call — whose every
 * start caller calls it by a name the rule follows across files, so the finding is made at those
 * calls, where each replica runs it, and not in the helper the command needs. A helper that only
 * start paths call keeps its finding.
 */
export function calledOnlyByTools(context: DetectContext, node: TSESTree.Node): boolean {
  const wrapper = exportedFunctionAround(node);
  if (!wrapper) return false;
  // A closure the wrapper hands out (`return [db, async () => migrate(db, …)]`): whoever takes it and calls it runs it.
  const slot = handedOutSlot(node, wrapper.declaration);
  const callers = slot === undefined ? wrapperCallers(context, wrapper, 0) : closureRunners(context, wrapper.name, slot);
  return !callers.service && callers.tools;
}

/** Whether a `schemaWriteOption` finding is in a `new DataSource(…)` (TypeORM 0.3), not options a 0.2 `createConnection()` loads from `ormconfig`. */
function inDataSourceConstruction(node: TSESTree.Node): boolean {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (parent.type === 'NewExpression') return parent.callee.type === 'Identifier' && parent.callee.name === 'DataSource';
    if (parent.type !== 'ObjectExpression' && parent.type !== 'Property') return false;
  }
  return false;
}

/**
 * Whether the linted file is a data source only TypeORM's CLI reads, when a script hands it to the
 * CLI (`byScript`) or it is the CLI's `ormconfig`: only tools and tests import it (for the
 * `ormconfig`, also when no package is in view: the file linted alone).
 */
function isCliOnlyDataSource(context: DetectContext): { byScript: boolean; byName: boolean } {
  const filename = context.physicalFilename ?? context.filename;
  const byScript = isTypeOrmCliDataSource(filename);
  const named = TYPEORM_CLI_CONFIG_NAME.test(basename(filename));
  if (!byScript && !named) return { byScript: false, byName: false };
  const importers = modulesImporting(context);
  const onlyTools = importers?.every((module) => isToolOrTestModule(module.context));
  if (importers === undefined) return { byScript: false, byName: named && nearestPackageJson(dirname(filename)) === undefined };
  return { byScript: byScript && onlyTools === true, byName: named && onlyTools === true };
}

/**
 * Whether the linted module starts nothing when loaded (only declares and exports: a reset or seed
 * helper, `module.exports = resetStock`) and is imported only by tools and tests, one tool at least
 * (a benchmark or seed script, a migrate entrypoint): its functions run where those call them, on
 * no replica's start. A module that only tests import may still be loaded by the app another way
 * (a plugin folder an autoloader reads), and keeps its findings; so does one no module imports.
 */
function importedOnlyByTools(context: DetectContext): boolean {
  if (!startsNothing(context.sourceCode.ast as TSESTree.Program)) return false;
  const importers = modulesImporting(context);
  if (!importers || importers.length === 0 || !importers.every((module) => isToolOrTestModule(module.context))) return false;
  return importers.some((module) => !isTestFilePath(projectPath(module.path, module.context.cwd) ?? module.path));
}

/**
 * `report`, dropping the calls that sit in a wrapper only tools and tests call (asked once per
 * wrapper) or in a module only tools import (asked once per file), and the options of a data
 * source only TypeORM's CLI reads (asked once per file).
 */
export function outsideToolWrappers<Report extends (descriptor: never) => void>(context: DetectContext, report: Report): Report {
  const answers = new Map<string | undefined, boolean>();
  let cliOnly: { byScript: boolean; byName: boolean } | undefined;
  let toolModule: boolean | undefined;
  return ((descriptor: { messageId: string; node: TSESTree.Node }) => {
    if (descriptor.messageId === 'schemaWriteOption') {
      cliOnly ??= isCliOnlyDataSource(context);
      if (cliOnly.byScript || (cliOnly.byName && inDataSourceConstruction(descriptor.node))) return;
    }
    if (descriptor.messageId === 'schemaWriteCall' || descriptor.messageId === 'schemaWriteCommand') {
      if ((toolModule ??= importedOnlyByTools(context))) return;
      const wrapper = exportedFunctionAround(descriptor.node)?.declaration;
      // A closure the wrapper hands out is judged apart from the wrapper's own body.
      const key = wrapper && `${wrapper.range[0]}:${String(handedOutSlot(descriptor.node, wrapper))}`;
      let onlyTools = answers.get(key);
      if (onlyTools === undefined) answers.set(key, (onlyTools = key !== undefined && calledOnlyByTools(context, descriptor.node)));
      if (onlyTools) return;
    }
    report(descriptor as never);
  }) as unknown as Report;
}
