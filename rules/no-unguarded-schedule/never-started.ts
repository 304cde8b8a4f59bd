// A job built stopped that nothing starts: `const digest = new CronJob(expr, fn)` (cron starts a job
// only with `start: true` or a `.start()` call; node-cron's `{ scheduled: false }`, croner's
// `{ paused: true }` likewise) held in a module-level name (or a local of a function's body) whose every use is another method
// (`digest.stop()`) — in this module and, when it is exported, in every module of its package that
// imports it. Such a job never runs, so it runs on no replica. A start call anywhere in reach, a
// use that hands the job on (stored in a list, passed to a registry, `module.exports`), or a package
// that cannot be read (the file linted alone) keeps the report: the job may be started out of sight.
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../../analysis/detect-context.js';
import { declaredVariables } from '../../analysis/ast/declared-variables.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { methodCallsOfExport, methodCalledOn } from '../../analysis/modules/importers.js';
import { builtStopped } from '../../analysis/scheduled-work/schedule-starters.js';
import type { ScheduledWork } from '../../analysis/scheduled-work/scheduled-work.js';
import { isFunctionLike } from '../../analysis/scheduled-work/work-function.js';

/** The option that starts an object-form job at once (`new CronJob({ cronTime, onTick, start: true })`, before cron v3). */
const START_OPTION = 'start';

/**
 * The `const job = <call>` holding the schedule: module-level (exported or not), or a local of a function's body
 * (`let digest = new CronJob(…)` in a handler: nothing outside the function can reach it, so its uses there are all
 * it has); undefined when it is held otherwise.
 */
function holderOf(node: TSESTree.Node): TSESTree.VariableDeclarator | undefined {
  let value: TSESTree.Node = node;
  while (value.parent && value.parent !== value && unwrapExpression(value.parent) === unwrapExpression(value)) value = value.parent;
  const declarator = value.parent;
  if (declarator?.type !== 'VariableDeclarator' || declarator.init !== value || declarator.id.type !== 'Identifier') return undefined;
  const owner = declarator.parent?.parent;
  const program = owner?.type === 'ExportNamedDeclaration' ? owner.parent : owner;
  return program?.type === 'Program' || (owner?.type === 'BlockStatement' && isFunctionLike(owner.parent)) ? declarator : undefined;
}

/** An object argument whose `start` option is not a literal `false`: the job may start as it is built. */
function mayStartByOption(call: TSESTree.CallExpression | TSESTree.NewExpression): boolean {
  return call.arguments.some(
    (argument) =>
      argument.type === 'ObjectExpression' &&
      argument.properties.some(
        (p) =>
          p.type === 'SpreadElement' || (propertyKeyName(p) === START_OPTION && !(p.value.type === 'Literal' && p.value.value === false)),
      ),
  );
}

/**
 * The names the job is exported under, when every use of it in its module is a method call other
 * than a start; undefined when it is started here or used otherwise.
 */
function exportedNamesIfUnstarted(
  context: DetectContext,
  holder: TSESTree.VariableDeclarator,
  startMethods: readonly string[],
): string[] | undefined {
  const name = (holder.id as TSESTree.Identifier).name;
  const exported = holder.parent?.parent?.type === 'ExportNamedDeclaration' ? [name] : [];
  for (const variable of declaredVariables(context.sourceCode, holder, name)) {
    for (const reference of variable.references) {
      if (reference.init) continue;
      const parent = reference.identifier.parent;
      if (parent?.type === 'ExportSpecifier' && parent.exported.type === 'Identifier') {
        exported.push(parent.exported.name);
        continue;
      }
      const method = methodCalledOn(reference.identifier);
      if (method === undefined || startMethods.includes(method)) return undefined;
    }
  }
  return exported;
}

/**
 * The library's own call (`new CronJob(…)`, `cron.createTask(…)`), not a project class's `new` that builds one
 * inside (constructed-helper.ts: its arguments are the class's, and its constructor may start the job).
 */
function isLibraryCall(work: ScheduledWork): boolean {
  const callee = work.schedulerNode.callee;
  const name = callee.type === 'MemberExpression' ? memberPropertyName(callee) : callee.type === 'Identifier' ? callee.name : undefined;
  return name !== undefined && name === work.entry.path.at(-1);
}

/** Whether `work` is a job built stopped that no code in reach starts (see the file's head). */
export function neverStarted(context: DetectContext, work: ScheduledWork): boolean {
  const deferred = builtStopped(work);
  const node = work.schedulerNode;
  if (!deferred || !isLibraryCall(work) || mayStartByOption(node)) return false;
  const holder = holderOf(node);
  const exported = holder && exportedNamesIfUnstarted(context, holder, deferred.startMethods);
  if (!exported) return false;
  return exported.every((name) => {
    const elsewhere = methodCallsOfExport(context, name);
    return elsewhere !== undefined && elsewhere.every((found) => !found.calls.some((method) => deferred.startMethods.includes(method)));
  });
}
