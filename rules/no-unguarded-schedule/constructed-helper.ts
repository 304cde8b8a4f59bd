// A project class of another module whose constructor schedules the callback it is handed:
// `class NightlyJob { constructor(expr, name, task) { this.task = task; this.start(); } start() {
// new CronJob(this.expr, () => this.run()); } async run() { try { await this.task(); } catch … } }`,
// built as `new NightlyJob('0 3 * * *', 'purge', async () => { … })`. Each `new` that hands it work is
// a schedule, judged here with the class's scheduler and the period the call passes — as a call of
// an imported helper function is (imported-helper.ts). The class's own schedule is still judged in
// its own file (its bookkeeping around the callback may be work of its own). A class whose schedule
// is set up only by a later method call (`job.start()`) schedules nothing when it is built: it is
// left alone. Asked only of `new` of an imported name that hands over a function; the class's module
// is walked only when its text names a scheduler.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { DetectContext } from '../../analysis/detect-context.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { projectValueOf, type ProjectModule } from '../../analysis/modules/index.js';
import type { ScheduledWork, SchedulePeriod } from '../../analysis/scheduled-work/scheduled-work.js';
import { classMemberKeyName, isFunctionLike, type FunctionLike } from '../../analysis/scheduled-work/work-function.js';
import { handedWorkAt, handsOverWork, projectImportConstructions, worksOf, type HelperSchedule } from './imported-helper.js';
import { constructorParameterIndex } from './instance-callback.js';

type ClassLike = TSESTree.ClassDeclaration | TSESTree.ClassExpression;

/** The schedule a class's constructor sets on one of its parameters: that parameter's position, and the period's. */
interface ConstructedSchedule extends HelperSchedule {
  /** The constructor parameter the period is read from, or undefined when the class writes it out. */
  periodIndex: number | undefined;
}

/** How many of the class's own methods deep the run of the callback is looked for (`tick` → `run` → `this.task()`). */
const OWN_METHOD_DEPTH = 2;

/** `this.name(…)`: the name of an own member a call runs. */
function ownCallName(node: TSESTree.Node): string | undefined {
  if (node.type !== 'CallExpression') return undefined;
  const callee = unwrapExpression(node.callee);
  return callee.type === 'MemberExpression' && callee.object.type === 'ThisExpression' ? memberPropertyName(callee) : undefined;
}

/** The class's own method by name. */
function ownMethod(body: TSESTree.ClassBody, name: string): FunctionLike | undefined {
  for (const member of body.body) {
    if (member.type !== 'MethodDefinition' && member.type !== 'PropertyDefinition') continue;
    if (member.static || classMemberKeyName(member) !== name) continue;
    if (isFunctionLike(member.value)) return member.value;
  }
  return undefined;
}

/** `this.run.bind(this)`: the own member's name. */
function boundName(node: TSESTree.Node): string | undefined {
  if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression' || memberPropertyName(node.callee) !== 'bind')
    return undefined;
  const bound = unwrapExpression(node.callee.object);
  return bound.type === 'MemberExpression' && bound.object.type === 'ThisExpression' ? memberPropertyName(bound) : undefined;
}

/** The position of the constructor parameter `node` runs (`this.task()`, through own methods a few deep), or undefined. */
function runsTakenCallback(sourceCode: SourceCode, body: TSESTree.ClassBody, node: TSESTree.Node, depth = 0): number | undefined {
  const handed = unwrapExpression(node);
  const whole = handed.type === 'MemberExpression' && handed.object.type === 'ThisExpression' ? memberPropertyName(handed) : undefined;
  for (const name of whole === undefined ? ownRuns(sourceCode, node) : [whole]) {
    const index = constructorParameterIndex(body, name);
    if (index !== undefined) return index >= 0 ? index : undefined;
    const method = depth < OWN_METHOD_DEPTH ? ownMethod(body, name) : undefined;
    const found = method ? runsTakenCallback(sourceCode, body, method.body, depth + 1) : undefined;
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The own members a piece of code runs or hands over bound (`this.task()`, `this.tick.bind(this)`), in order. */
function* ownRuns(sourceCode: SourceCode, node: TSESTree.Node): Generator<string> {
  for (const child of [node, ...descendants(node, sourceCode.visitorKeys)]) {
    const name = ownCallName(child) ?? boundName(child);
    if (name !== undefined) yield name;
  }
}

/** Whether the schedule is set up when the class is built: in its constructor, or in an own method the constructor calls. */
function setUpByConstructor(sourceCode: SourceCode, body: TSESTree.ClassBody, scheduler: TSESTree.Node): boolean {
  const constructor = body.body.find((m) => m.type === 'MethodDefinition' && m.kind === 'constructor');
  if (constructor?.type !== 'MethodDefinition') return false;
  const within = (outer: TSESTree.Node) => scheduler.range[0] >= outer.range[0] && scheduler.range[1] <= outer.range[1];
  if (within(constructor.value)) return true;
  for (const child of constructor.value.body ? descendants(constructor.value.body, sourceCode.visitorKeys) : []) {
    const name = ownCallName(child);
    const method = name === undefined ? undefined : ownMethod(body, name);
    if (method && within(method)) return true;
  }
  return false;
}

/** The constructor parameter the schedule's period is read from: `this.expr` kept from it, or the parameter itself. */
function periodParameter(body: TSESTree.ClassBody, work: ScheduledWork): number | undefined {
  const period = work.period;
  const text = period?.kind === 'interval' || period?.kind === 'cron-reference' ? period.text : undefined;
  const first = work.schedulerNode.arguments[0];
  const written = text ?? (first && first.type !== 'SpreadElement' && work.workIndex !== 0 ? first : undefined);
  const field = typeof written === 'string' ? /^this\.([\w$]+)$/.exec(written)?.[1] : undefined;
  const node = written && typeof written !== 'string' ? unwrapExpression(written) : undefined;
  const name = field ?? (node?.type === 'MemberExpression' && node.object.type === 'ThisExpression' ? memberPropertyName(node) : undefined);
  const index = name === undefined ? undefined : constructorParameterIndex(body, name);
  return index !== undefined && index >= 0 ? index : undefined;
}

/** The schedules each class's constructor sets on a parameter (found once per class). */
const byClass = new WeakMap<ClassLike, ConstructedSchedule | null>();

function constructedSchedule(cls: ClassLike, module: ProjectModule): ConstructedSchedule | null {
  const known = byClass.get(cls);
  if (known !== undefined) return known;
  let found: ConstructedSchedule | null = null;
  const sourceCode = module.sourceCode;
  for (const work of worksOf(module)) {
    const node = work.schedulerNode;
    if (!work.expression || node.range[0] < cls.body.range[0] || node.range[1] > cls.body.range[1]) continue;
    if (!setUpByConstructor(sourceCode, cls.body, node)) continue;
    const index = runsTakenCallback(sourceCode, cls.body, work.expression);
    if (index !== undefined) {
      found = { work, index, periodIndex: periodParameter(cls.body, work) };
      break;
    }
  }
  byClass.set(cls, found);
  return found;
}

/** The period a `new` passes: a cron expression written out, or an interval's text. */
function periodOf(sourceCode: SourceCode, schedule: ConstructedSchedule, call: TSESTree.NewExpression): SchedulePeriod {
  if (schedule.periodIndex === undefined) return schedule.work.period;
  const value = call.arguments[schedule.periodIndex];
  if (!value || value.type === 'SpreadElement') return undefined;
  if (schedule.work.period?.kind === 'interval') return { kind: 'interval', text: sourceCode.getText(value) };
  return value.type === 'Literal' && typeof value.value === 'string' ? { kind: 'cron', expression: value.value } : undefined;
}

/** Each `new` in this file of an imported class that schedules the work it is handed, as a scheduled work of the class's scheduler. */
export function constructedHelperWorks(context: DetectContext): ScheduledWork[] {
  const sourceCode = context.sourceCode;
  const out: ScheduledWork[] = [];
  for (const { identifier, call } of projectImportConstructions(sourceCode)) {
    if (!call.arguments.some(handsOverWork)) continue;
    const value = projectValueOf(context, identifier);
    const cls = value?.node;
    if (!value || (cls?.type !== 'ClassDeclaration' && cls?.type !== 'ClassExpression')) continue;
    const schedule = constructedSchedule(cls, value.module);
    const work = schedule && handedWorkAt(sourceCode, schedule, call, () => periodOf(sourceCode, schedule, call));
    if (work) out.push(work);
  }
  return out;
}
