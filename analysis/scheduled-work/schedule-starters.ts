// The exported functions of a module that start a schedule: the schedule is set inside one
// (`export function startDigests() { setInterval(…) }`), or it is a job built stopped at the top
// level (`const job = new CronJob(expr, fn)`) whose start method is called only inside such
// functions (`export function startDigests() { job.start(); }`). Who calls those functions then
// decides whether the schedule runs on every replica (rules/no-unguarded-schedule/started-under-guard.ts).
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { DEFERRED_STARTS, type DeferredStart } from '../../src/knowledge/deferred-start.js';
import { declaredVariables } from '../ast/declared-variables.js';
import { memberPropertyName, propertyKeyName } from '../ast/property-names.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { isFunctionLike, type FunctionLike } from './work-function.js';
import type { ScheduledWork } from './scheduled-work.js';

/** An exported function of the module: the function, its local name, and the name other modules import. */
export interface ExportedStarter {
  fn: FunctionLike;
  /** The node whose declared variable is the function's binding (a declaration or a declarator). */
  declaration: TSESTree.FunctionDeclaration | TSESTree.VariableDeclarator;
  localName: string;
  exportedName: string;
}

/** The outermost function around `node`, when it is a top-level declaration of the module. */
function topLevelFunction(
  node: TSESTree.Node,
): { fn: FunctionLike; declaration: ExportedStarter['declaration']; name: string } | undefined {
  let outer: FunctionLike | undefined;
  for (let current = node.parent; current; current = current.parent) if (isFunctionLike(current)) outer = current;
  if (!outer) return undefined;
  if (outer.type === 'FunctionDeclaration') {
    const holder = outer.parent?.type === 'ExportNamedDeclaration' ? outer.parent.parent : outer.parent;
    return outer.id && holder?.type === 'Program' ? { fn: outer, declaration: outer, name: outer.id.name } : undefined;
  }
  let value: TSESTree.Node = outer;
  while (value.parent && unwrapExpression(value.parent) === outer) value = value.parent;
  const declarator = value.parent;
  if (declarator?.type !== 'VariableDeclarator' || declarator.id.type !== 'Identifier' || declarator.init !== value) return undefined;
  const list = declarator.parent;
  const holder = list?.parent?.type === 'ExportNamedDeclaration' ? list.parent.parent : list?.parent;
  return list?.type === 'VariableDeclaration' && list.kind === 'const' && holder?.type === 'Program'
    ? { fn: outer, declaration: declarator, name: declarator.id.name }
    : undefined;
}

/** The name the module exports a top-level function under (`export function f`, `export const f`, `export { f as g }`). */
function exportedNameOf(sourceCode: SourceCode, found: NonNullable<ReturnType<typeof topLevelFunction>>): string | undefined {
  const { declaration, name } = found;
  const direct = declaration.type === 'FunctionDeclaration' ? declaration.parent : declaration.parent?.parent;
  if (direct?.type === 'ExportNamedDeclaration') return name;
  for (const statement of sourceCode.ast.body) {
    if (statement.type !== 'ExportNamedDeclaration' || statement.source) continue;
    for (const specifier of statement.specifiers) {
      if (specifier.local.type === 'Identifier' && specifier.local.name === name && specifier.exported.type === 'Identifier')
        return specifier.exported.name;
    }
  }
  return undefined;
}

function exportedStarterAround(sourceCode: SourceCode, node: TSESTree.Node): ExportedStarter | undefined {
  const found = topLevelFunction(node);
  const exportedName = found && exportedNameOf(sourceCode, found);
  return found && exportedName !== undefined
    ? { fn: found.fn, declaration: found.declaration, localName: found.name, exportedName }
    : undefined;
}

/** The literal value of the entry's start flag in the call, `undefined` when absent, `null` when not a literal. */
function startFlag(call: TSESTree.CallExpression | TSESTree.NewExpression, deferred: DeferredStart): boolean | undefined | null {
  if (!deferred.flag) return undefined;
  const argument = call.arguments[deferred.flag.argument];
  if (!argument) return undefined;
  let value: TSESTree.Node | undefined = argument;
  if (deferred.flag.option !== undefined) {
    if (argument.type !== 'ObjectExpression')
      return argument.type === 'ArrowFunctionExpression' || argument.type === 'FunctionExpression' ? undefined : null;
    if (argument.properties.some((p) => p.type === 'SpreadElement')) return null;
    const property = argument.properties.find((p) => p.type === 'Property' && propertyKeyName(p) === deferred.flag!.option);
    value = property?.type === 'Property' ? property.value : undefined;
    if (!value) return undefined;
  }
  return value.type === 'Literal' && typeof value.value === 'boolean' ? value.value : null;
}

/** A job built stopped: its scheduler starts it later, and this call does not ask for it at once. */
export function builtStopped(work: ScheduledWork): DeferredStart | undefined {
  const deferred = DEFERRED_STARTS.find((d) => d.scheduler === work.entry.id);
  if (!deferred || work.decorator) return undefined;
  const flag = startFlag(work.schedulerNode as TSESTree.CallExpression | TSESTree.NewExpression, deferred);
  if (flag === null) return undefined;
  const starts = flag === undefined ? deferred.startsByDefault : flag === deferred.startsWhen;
  return starts ? undefined : deferred;
}

/** `const job = <the schedule>` at the module's top level (not exported: no other module can start it). */
function topLevelHolder(node: TSESTree.Node): TSESTree.VariableDeclarator | undefined {
  let value: TSESTree.Node = node;
  while (value.parent && isWrapperOf(value.parent, value)) value = value.parent;
  const declarator = value.parent;
  if (declarator?.type !== 'VariableDeclarator' || declarator.init !== value || declarator.id.type !== 'Identifier') return undefined;
  return declarator.parent?.type === 'VariableDeclaration' && declarator.parent.parent?.type === 'Program' ? declarator : undefined;
}

function isWrapperOf(parent: TSESTree.Node, child: TSESTree.Node): boolean {
  return unwrapExpression(parent) === unwrapExpression(child) && parent !== child;
}

/**
 * The exported functions that start `work`, or undefined when it may start otherwise: set outside
 * such a function, built to start at once, held where other code may start it.
 */
export function exportedStarters(sourceCode: SourceCode, work: ScheduledWork): ExportedStarter[] | undefined {
  const node = work.schedulerNode;
  if (work.decorator || work.pollLoop) return undefined;
  const around = exportedStarterAround(sourceCode, node);
  if (around) return [around];
  const deferred = builtStopped(work);
  if (!deferred) return undefined;
  const holder = topLevelHolder(node);
  const name = holder?.id.type === 'Identifier' ? holder.id.name : undefined;
  const variable = holder && name !== undefined ? declaredVariables(sourceCode, holder, name)[0] : undefined;
  if (!variable) return undefined;
  const starters = new Map<FunctionLike, ExportedStarter>();
  for (const reference of variable.references) {
    if (reference.init) continue;
    const member = reference.identifier.parent;
    // Anything but `job.method(…)` (the job handed to other code, kept in a list): who starts it is unknown.
    if (member?.type !== 'MemberExpression' || member.object !== reference.identifier) return undefined;
    const method = memberPropertyName(member);
    if (method === undefined || !deferred.startMethods.includes(method)) continue;
    const starter = exportedStarterAround(sourceCode, member);
    if (!starter) return undefined;
    starters.set(starter.fn, starter);
  }
  return starters.size > 0 ? [...starters.values()] : undefined;
}
