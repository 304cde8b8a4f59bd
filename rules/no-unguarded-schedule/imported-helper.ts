// A project helper of another module that schedules the callback it is handed:
// `export function addJob(registry, name, cronTime, handle) { const job = new CronJob(cronTime, handle); … }`
// called as `addJob(this.registry, 'match', '0 */5 * * * *', this.match.bind(this))`. The helper's
// own file judges nothing (its work is its caller's); each call that hands it work is the schedule,
// judged here with the helper's scheduler and the period the call passes — as a same-file wrapper is
// (handed-callback.ts). Asked only of files past the rule's candidate gates, and only of calls of an
// imported name that hand over a function, a bound method or a method beside a literal; the
// helper's module is walked only when its text names a scheduler.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { DetectContext } from '../../analysis/detect-context.js';
import { declaredVariables } from '../../analysis/ast/declared-variables.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { requiredSpecifier } from '../../analysis/imports/module-bindings.js';
import { defineFunctionFact, projectFunctionOf, type ProjectModule } from '../../analysis/modules/index.js';
import { scheduledWorks, type ScheduledWork, type SchedulePeriod } from '../../analysis/scheduled-work/scheduled-work.js';
import { isFunctionLike, resolveWorkFunction } from '../../analysis/scheduled-work/work-function.js';
import { handedCallback, periodAt } from './handed-callback.js';
import { mentionsSchedule } from './schedule-mentions.js';

/** The schedule a helper sets on one of its parameters, and that parameter's position. */
export interface HelperSchedule {
  work: ScheduledWork;
  index: number;
}

/** The scheduled works of each module asked about (its whole file's, found once). */
const worksByModule = new WeakMap<ProjectModule, ScheduledWork[]>();

export function worksOf(module: ProjectModule): ScheduledWork[] {
  let works = worksByModule.get(module);
  // A module whose text names no scheduler schedules nothing: its AST is not walked.
  if (!works) worksByModule.set(module, (works = mentionsSchedule(module.sourceCode.text) ? scheduledWorks(module.context) : []));
  return works;
}

const inside = (inner: TSESTree.Node, outer: TSESTree.Node): boolean =>
  inner.range[0] >= outer.range[0] && inner.range[1] <= outer.range[1];

/** Whether a project function schedules one of its own parameters as the whole of the work. */
const scheduledParameter = defineFunctionFact<HelperSchedule | null>('schedules-a-parameter', null, (fn) => {
  for (const work of worksOf(fn.module)) {
    if (!inside(work.schedulerNode, fn.fn)) continue;
    const handed = handedCallback(fn.module.sourceCode, work);
    if (handed?.wrapper === fn.fn && handed.index >= 0) return { work, index: handed.index };
  }
  return null;
});

/** `() => …`, `function () {…}`, `this.sweep.bind(this)`, `this.sweep`: work handed over, not data. */
export function handsOverWork(argument: TSESTree.Node): boolean {
  const node = unwrapExpression(argument);
  if (isFunctionLike(node)) return true;
  if (node.type === 'CallExpression') return node.callee.type === 'MemberExpression' && memberPropertyName(node.callee) === 'bind';
  return node.type === 'MemberExpression' && node.object.type === 'ThisExpression';
}

/** A call handing over work beside a literal (a cron expression, `60_000`): the shape of a scheduling helper's call. */
function handsWorkWithPeriod(call: TSESTree.CallExpression): boolean {
  const literal = (a: TSESTree.Node) => a.type === 'Literal' || a.type === 'TemplateLiteral';
  return call.arguments.some(handsOverWork) && call.arguments.some(literal);
}

/** The top-level import specifiers and `require` declarators of modules that are not packages (`./jobs`, `../utils`, `@/lib/cron`). */
function projectImports(program: TSESTree.Program): TSESTree.Node[] {
  const found: TSESTree.Node[] = [];
  const local = (specifier: string | undefined) => specifier !== undefined && /^(?:\.{1,2}\/|[@~#]\/)/.test(specifier);
  for (const statement of program.body) {
    if (statement.type === 'ImportDeclaration' && local(statement.source.value)) found.push(...statement.specifiers);
    if (statement.type !== 'VariableDeclaration') continue;
    for (const declarator of statement.declarations) if (local(requiredSpecifier(declarator.init))) found.push(declarator);
  }
  return found;
}

/** Each call (`addJob(…)`, `@NightlyOnce(…)`) or construction (`new NightlyJob(…)`) of a name this file imports from a project module, with the name. */
function* projectImportUses<T extends 'CallExpression' | 'NewExpression'>(
  sourceCode: SourceCode,
  type: T,
): Generator<{ identifier: TSESTree.Identifier; call: Extract<TSESTree.Node, { type: T }> }> {
  for (const declaration of projectImports(sourceCode.ast))
    for (const variable of declaredVariables(sourceCode, declaration))
      for (const { identifier } of variable.references) {
        const call = identifier.parent;
        if (call?.type === type && (call as TSESTree.CallExpression).callee === identifier)
          yield { identifier: identifier as TSESTree.Identifier, call: call as Extract<TSESTree.Node, { type: T }> };
      }
}

/** Each call of a name this file imports from a project module (`addJob(…)`, `@NightlyOnce(…)`), with the name. */
export const projectImportCalls = (sourceCode: SourceCode) => projectImportUses(sourceCode, 'CallExpression');

/** Each `new` of a class this file imports from a project module (`new NightlyJob(…)`), with the name. */
export const projectImportConstructions = (sourceCode: SourceCode) => projectImportUses(sourceCode, 'NewExpression');

/** The work a call or `new` hands a helper scheduling its argument at `schedule.index`, as a scheduled work of the helper's scheduler. */
export function handedWorkAt(
  sourceCode: SourceCode,
  schedule: HelperSchedule,
  call: TSESTree.CallExpression | TSESTree.NewExpression,
  period: () => SchedulePeriod,
): ScheduledWork | undefined {
  const argument = call.arguments[schedule.index];
  if (!argument || argument.type === 'SpreadElement' || !handsOverWork(argument)) return undefined;
  const resolved = resolveWorkFunction(sourceCode, argument);
  return {
    entry: schedule.work.entry,
    schedulerNode: call,
    expression: argument,
    workIndex: schedule.index,
    resolved,
    name: resolved?.name,
    period: period(),
    coordinatedByOption: false,
  };
}

/** Each call in this file that hands work to an imported helper scheduling it, as a scheduled work of the helper's scheduler. */
export function importedHelperWorks(context: DetectContext): ScheduledWork[] {
  const sourceCode = context.sourceCode;
  const out: ScheduledWork[] = [];
  for (const { identifier, call } of projectImportCalls(sourceCode)) {
    if (!handsWorkWithPeriod(call)) continue;
    const helper = projectFunctionOf(context, identifier);
    const schedule = helper && scheduledParameter(helper);
    const work = schedule && handedWorkAt(sourceCode, schedule, call, () => periodAt(sourceCode, helper.fn, schedule.work, call));
    if (work) out.push(work);
  }
  return out;
}
