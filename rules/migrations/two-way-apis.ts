// A module that exports both directions of a migrator — `migrateLatest()` beside `migrateDown()`,
// `runMigrations()` beside `undoLastMigration()`, a `{ latest, rollback, up, down }` table over
// `knex.migrate` — is a migration API: what an operator's CLI, a test harness and perhaps a
// server's start call. Its wrappers run where they are called, not where they are defined, and no
// replica's start undoes a migration. So a schema write in one of its exported wrappers that its
// own module never calls is left to the callers when none is in view (the file linted alone, a
// caller in a sibling package, or no caller at all): a start path that calls it does so by a name
// the rule follows (`await migrateLatest(db)`, `runMigrations(source)`) and is reported there. A
// module with one direction only (`export async function migrate() { … }`) keeps its finding: it
// may be a start hook. Callers in view are judged by `outsideToolWrappers` first.
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../utils/create-rule.js';
import { callsOfExport } from '../../analysis/modules/importers.js';
import { declaredVariables } from '../../analysis/ast/declared-variables.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { namesMigratorUndo } from '../../src/knowledge/migrator-methods.js';

/** An exported wrapper: its export's name and the declaration that binds that name. */
interface ExportedWrapper {
  name: string;
  declaration: TSESTree.FunctionDeclaration | TSESTree.VariableDeclarator;
}

const isFunction = (node: TSESTree.Node | null | undefined): boolean =>
  node?.type === 'ArrowFunctionExpression' || node?.type === 'FunctionExpression';

/**
 * The exported wrapper a node sits in: `export function migrateUp() {…}`, `export const undo =
 * async () => {…}`, or a function property of an exported object (`export const migrate = {
 * latest: async () => {…} }`, the object's name then being the export's).
 */
function exportedWrapperAround(node: TSESTree.Node): ExportedWrapper | undefined {
  let child: TSESTree.Node = node;
  let inFunction = false;
  for (let parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (isFunction(child) || child.type === 'FunctionDeclaration') inFunction = true;
    if (parent.type !== 'Program') continue;
    if (!inFunction || child.type !== 'ExportNamedDeclaration' || !child.declaration) return undefined;
    const declared = child.declaration;
    if (declared.type === 'FunctionDeclaration') return declared.id ? { name: declared.id.name, declaration: declared } : undefined;
    if (declared.type !== 'VariableDeclaration' || declared.declarations.length !== 1) return undefined;
    const [declarator] = declared.declarations;
    const init = declarator?.init && unwrapExpression(declarator.init);
    if (declarator?.id.type !== 'Identifier' || (!isFunction(init) && init?.type !== 'ObjectExpression')) return undefined;
    return { name: declarator.id.name, declaration: declarator };
  }
  return undefined;
}

/** Whether a call is an undo verb of a migrator (`umzug.down()`, `knex.migrate.rollback()`, `connection.undoLastMigration()`). */
function callsUndoVerb(call: TSESTree.Node): boolean {
  if (call.type !== 'CallExpression') return false;
  const callee = unwrapExpression(call.callee);
  const name = callee.type === 'MemberExpression' ? memberPropertyName(callee) : undefined;
  return name !== undefined && namesMigratorUndo(name);
}

/** Whether no caller of the export is in view: none can be read, or no module of the package calls it. */
function noCallerInView(context: DetectContext, name: string): boolean {
  const callers = callsOfExport(context, name, { includeTests: true });
  return callers === undefined || callers.every((caller) => caller.calls.length === 0);
}

/**
 * Whether the wrapper is reached only from outside the module, by callers out of view: its module
 * never uses its name, or only calls it from another exported wrapper (`updateDb()` calling
 * `runMigrations(source)`) that is itself so reached, one level up.
 */
function reachedOnlyFromOutside(context: DetectContext, wrapper: ExportedWrapper, depth = 0): boolean {
  const variables = declaredVariables(context.sourceCode, wrapper.declaration, wrapper.name);
  for (const reference of variables.flatMap((v) => v.references.filter((r) => !r.init))) {
    const around = depth === 0 ? exportedWrapperAround(reference.identifier) : undefined;
    if (!around || around.declaration === wrapper.declaration || reference.identifier.parent?.type !== 'CallExpression') return false;
    if (!reachedOnlyFromOutside(context, around, depth + 1)) return false;
  }
  return noCallerInView(context, wrapper.name);
}

/**
 * `report`, holding the schema-write calls that sit in exported wrappers until `flush`: then, when
 * one of the held calls undoes a migration and another applies one (the module is a two-way migration API), those whose
 * wrapper its own module never uses and whose callers are out of view are dropped; the rest are
 * reported. Everything else passes straight through.
 */
export function outsideTwoWayMigrationApis<Report extends (descriptor: never) => void>(
  context: DetectContext,
  report: Report,
): { report: Report; flush: () => void } {
  const held: Array<{ descriptor: { messageId: string; node: TSESTree.Node }; wrapper: ExportedWrapper }> = [];
  const hold = (descriptor: { messageId: string; node: TSESTree.Node }): void => {
    const wrapper = descriptor.messageId === 'schemaWriteCall' ? exportedWrapperAround(descriptor.node) : undefined;
    if (wrapper) held.push({ descriptor, wrapper });
    else report(descriptor as never);
  };
  const flush = (): void => {
    const undoes = held.filter(({ descriptor }) => callsUndoVerb(descriptor.node));
    // Both directions: an apply beside an undo.
    const twoWay = undoes.length > 0 && held.length > undoes.length;
    const dropped = new Map<TSESTree.Node, boolean>();
    for (const { descriptor, wrapper } of held.splice(0)) {
      let drop = dropped.get(wrapper.declaration);
      if (drop === undefined) dropped.set(wrapper.declaration, (drop = twoWay && reachedOnlyFromOutside(context, wrapper)));
      if (!drop) report(descriptor as never);
    }
  };
  return { report: hold as unknown as Report, flush };
}
