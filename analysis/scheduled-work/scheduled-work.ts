// The domain model of this family: a scheduled work function. One scheduler call (or decorator)
// of the catalogue (src/knowledge/schedulers.ts) becomes one model — the work (a function, a
// `for await` loop body, a decorated method), its period, the name it goes by, whether the
// scheduler's own options already coordinate replicas. Rules and the codemod reason only about
// this model, never about the scheduler call's shape.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import {
  POLL_LOOP,
  SCHEDULER_REGISTRY,
  SCHEDULERS,
  argumentIndex,
  unitObjectToMs,
  type ScheduleLocation,
  type SchedulerEntry,
} from '../../src/knowledge/schedulers.js';
import type { DetectContext } from '../detect-context.js';
import { pollLoops, type PollLoop } from './poll-loops.js';
import { isHandedToDecoratorLocker } from './decorator-locker.js';
import { lateTickWork } from './late-tick-work.js';
import { handedSchedulerCalls } from './handed-scheduler-module.js';
import { memberPropertyName, propertyKeyName } from '../ast/property-names.js';
import { scopeVariable } from '../ast/scope-variable.js';
import { descendants } from '../sql/descendants.js';
import { enclosingFunction, functionNameOf } from '../sql/enclosing-function.js';
import { importedReferences, moduleSpecifiers, type TrackedApi } from '../imports/imported-references.js';
import {
  classMemberKeyName,
  identifierDefinition,
  isFunctionLike,
  resolveWorkFunction,
  type FunctionLike,
  type ResolvedWork,
} from './work-function.js';

/**
 * The schedule of a finding: an interval expression as written, a literal cron expression, or a
 * cron expression named by a constant or an enum member (`CronExpression.EVERY_HOUR`), as written.
 */
export type SchedulePeriod =
  | { kind: 'interval'; text: string }
  | { kind: 'cron'; expression: string; tzText?: string }
  | { kind: 'cron-reference'; text: string; tzText?: string }
  | undefined;

/**
 * `EVERY_HOUR`, `CronExpression.EVERY_HOUR`, `schedules.NIGHTLY`: a constant-case name, whose value
 * is a cron string (a `RecurrenceRule` or an options object is named in camelCase and is not one).
 */
function isConstantReference(node: TSESTree.Node): boolean {
  const constantCase = (name: string): boolean => /^[A-Z][A-Z0-9_]*$/.test(name);
  if (node.type === 'Identifier') return constantCase(node.name);
  return node.type === 'MemberExpression' && !node.computed && node.property.type === 'Identifier' && constantCase(node.property.name);
}

export type SchedulerCall = TSESTree.CallExpression | TSESTree.NewExpression;

export interface ScheduledWork {
  entry: SchedulerEntry;
  /** The scheduling call itself (`setInterval(…)`, `new CronJob(…)`, the decorator's call). */
  schedulerNode: SchedulerCall;
  /** The expression naming the work where it is handed over; undefined for a decorated method or a loop body. */
  expression?: TSESTree.Node;
  /** Index of the work argument, when the work is one. */
  workIndex?: number;
  /** The work resolved in this file (`fn` undefined when it is defined elsewhere). */
  resolved?: ResolvedWork;
  /** For `for await (… of setInterval(ms))`: the loop body is the work. */
  loopBody?: TSESTree.BlockStatement;
  /** For `@Cron` / `@Interval` / `@Timeout`. */
  decorator?: TSESTree.Decorator;
  /** The name the job goes by, as written: the work's name, the scheduler's name option, the registry name, the variable. */
  name: string | undefined;
  period: SchedulePeriod;
  /** The scheduler's own options coordinate replicas (node-cron 4 `distributed: true`). */
  coordinatedByOption: boolean;
  /** For an endless poll loop (`while (true) { …; await delay(ms); }`): the loop; `loopBody` is its body, `schedulerNode` its pause. */
  pollLoop?: PollLoop;
}

const SCHEDULER_APIS: TrackedApi<SchedulerEntry>[] = SCHEDULERS.map((entry) => ({
  modules: entry.modules,
  path: entry.path,
  kind: entry.kind === 'construct' ? 'construct' : 'call',
  entry,
}));

function property(object: TSESTree.Node | undefined, name: string): TSESTree.Node | undefined {
  if (object?.type !== 'ObjectExpression') return undefined;
  for (const prop of object.properties) {
    if (prop.type === 'Property' && propertyKeyName(prop) === name) return prop.value;
  }
  return undefined;
}

function stringValue(node: TSESTree.Node | undefined): string | undefined {
  if (node?.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node?.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

function at(
  node: SchedulerCall,
  ref: ScheduleLocation['argument'],
  workIndex: number | undefined,
  option?: string,
): TSESTree.Node | undefined {
  const args = node.arguments;
  const index = argumentIndex(ref, args.length, workIndex);
  if (index === undefined) return undefined;
  const arg = args[index];
  if (!arg || arg.type === 'SpreadElement') return undefined;
  return option === undefined ? arg : property(arg, option);
}

/** Could this argument be a work function (a function, a name, `x.bind(this)`)? Object literals and strings cannot. */
export function couldBeWork(node: TSESTree.Node | undefined): node is TSESTree.Node {
  return (
    node !== undefined &&
    (isFunctionLike(node) ||
      node.type === 'Identifier' ||
      node.type === 'MemberExpression' ||
      node.type === 'CallExpression' ||
      node.type === 'TSAsExpression')
  );
}

type Located = Pick<ScheduledWork, 'expression' | 'workIndex' | 'resolved' | 'loopBody' | 'decorator'> & {
  /** For job files: the calls that start them (`bree.start()`), where the schedule is decided. */
  startedBy?: TSESTree.CallExpression[];
  /** For job files: the jobs' names, as written. */
  jobNames?: string;
};

/** `bree.start()`, `this.bree.start()`, `new Bree(…).start()`: the calls of `method` on what `construct` is kept in, in this file. */
function startCalls(sourceCode: SourceCode, construct: SchedulerCall, method: string): TSESTree.CallExpression[] {
  const parent = construct.parent;
  if (parent?.type === 'MemberExpression' && parent.object === construct && parent.parent?.type === 'CallExpression')
    return memberPropertyName(parent) === method ? [parent.parent] : [];
  const holder =
    parent?.type === 'VariableDeclarator' && parent.init === construct
      ? parent.id
      : parent?.type === 'AssignmentExpression' && parent.right === construct
        ? parent.left
        : undefined;
  if (!holder) return [];
  const text = sourceCode.getText(holder);
  const calls: TSESTree.CallExpression[] = [];
  for (const node of descendants(sourceCode.ast, sourceCode.visitorKeys))
    if (
      node.type === 'CallExpression' &&
      node.callee.type === 'MemberExpression' &&
      memberPropertyName(node.callee) === method &&
      sourceCode.getText(node.callee.object) === text
    )
      calls.push(node);
  return calls;
}

/** `['digest', { name: 'cleanup', cron: '…' }]` → `digest, cleanup`. */
function jobNamesOf(jobs: TSESTree.Node | undefined): string | undefined {
  if (jobs?.type !== 'ArrayExpression') return undefined;
  const names = jobs.elements.map((job) => stringValue(job ?? undefined) ?? stringValue(property(job ?? undefined, 'name')));
  return names.every((name) => name !== undefined) && names.length > 0 ? names.join(', ') : undefined;
}

/** `const task = new Task(…)`: a NewExpression is not a call, so the declarator is looked up directly. */
function taskDeclaration(sourceCode: SourceCode, identifier: TSESTree.Identifier): TSESTree.Node | undefined {
  const def = scopeVariable(sourceCode, identifier)?.defs[0];
  return def?.node.type === 'VariableDeclarator' && def.node.init ? def.node.init : undefined;
}

function locateWork(sourceCode: SourceCode, entry: SchedulerEntry, node: SchedulerCall): Located | undefined {
  for (const location of entry.work) {
    if (location.kind === 'argument') {
      const value = at(node, location.argument, undefined, location.option);
      if (!couldBeWork(value)) continue;
      return { expression: value, workIndex: location.argument, resolved: resolveWorkFunction(sourceCode, value) };
    }
    if (location.kind === 'task') {
      const argument = node.arguments[location.argument];
      let task: TSESTree.Node | undefined = argument;
      if (argument?.type === 'Identifier') {
        task = identifierDefinition(sourceCode, argument)?.wrapper ?? taskDeclaration(sourceCode, argument);
      }
      if (task?.type !== 'NewExpression' && task?.type !== 'CallExpression') continue;
      const handler = task.arguments[location.taskArgument];
      if (!couldBeWork(handler)) continue;
      return { expression: handler, workIndex: location.argument, resolved: resolveWorkFunction(sourceCode, handler) };
    }
    if (location.kind === 'job-files') {
      // Started elsewhere (the instance exported): the start decides, and it is not in this file.
      const startedBy = startCalls(sourceCode, node, location.startMethod);
      if (startedBy.length === 0) continue;
      const jobs = at(node, 0, undefined, location.option);
      return { expression: jobs ?? node, startedBy, jobNames: jobNamesOf(jobs) };
    }
    if (location.kind === 'for-await-body') {
      const parent = node.parent;
      if (parent?.type === 'ForOfStatement' && parent.await && parent.right === node && parent.body.type === 'BlockStatement') {
        return { loopBody: parent.body };
      }
      continue;
    }
    const decorator = node.parent;
    const member = decorator?.parent;
    if (decorator?.type === 'Decorator' && member?.type === 'MethodDefinition' && member.value.type === 'FunctionExpression') {
      return { decorator, resolved: { fn: member.value, name: classMemberKeyName(member), member } };
    }
  }
  // `const job = new CronJob({ cronTime })`, then `job.fireOnTick = () => …`: the work handed over afterwards.
  const late = lateTickWork(sourceCode, entry.id, node);
  return couldBeWork(late) ? { expression: late, resolved: resolveWorkFunction(sourceCode, late) } : undefined;
}

function intervalPeriod(sourceCode: SourceCode, location: ScheduleLocation, value: TSESTree.Node): SchedulePeriod {
  if (!location.unitObject) return { kind: 'interval', text: sourceCode.getText(value) };
  if (value.type !== 'ObjectExpression') return undefined;
  const units: Record<string, number> = {};
  for (const prop of value.properties) {
    const key = prop.type === 'Property' && prop.key.type === 'Identifier' ? prop.key.name : undefined;
    if (key !== undefined && prop.type === 'Property' && prop.value.type === 'Literal' && typeof prop.value.value === 'number') {
      units[key] = prop.value.value;
    } else if (key !== 'runImmediately') {
      return undefined;
    }
  }
  const ms = unitObjectToMs(units);
  return ms === undefined ? undefined : { kind: 'interval', text: String(ms) };
}

function periodOf(sourceCode: SourceCode, entry: SchedulerEntry, node: SchedulerCall, workIndex: number | undefined): SchedulePeriod {
  for (const location of entry.schedule) {
    const value = at(node, location.argument, workIndex, location.option);
    if (!value) continue;
    if (location.kind === 'interval') return intervalPeriod(sourceCode, location, value);
    const expression = stringValue(value);
    if (expression === undefined && !isConstantReference(value)) continue;
    const tz = entry.timeZone ? at(node, entry.timeZone.argument, workIndex, entry.timeZone.option) : undefined;
    const tzUsable = tz && !(tz.type === 'Literal' && tz.value === null) && !(tz.type === 'Identifier' && tz.name === 'undefined');
    const tzPart = tzUsable ? { tzText: sourceCode.getText(tz) } : {};
    return expression === undefined
      ? { kind: 'cron-reference', text: sourceCode.getText(value), ...tzPart }
      : { kind: 'cron', expression, ...tzPart };
  }
  return undefined;
}

function isCoordinatedByOption(entry: SchedulerEntry, node: SchedulerCall, workIndex: number | undefined): boolean {
  return (entry.coordinated ?? []).some((c) => {
    const value = at(node, c.argument, workIndex, c.option);
    return value?.type === 'Literal' && value.value === c.value;
  });
}

/** `registry.addCronJob('nightly-report', job)` gives the job its name. */
function registryName(sourceCode: SourceCode, node: SchedulerCall): string | undefined {
  const fromCall = (call: TSESTree.Node | undefined, argument: TSESTree.Node): string | undefined => {
    if (call?.type !== 'CallExpression' || call.callee.type !== 'MemberExpression' || call.callee.property.type !== 'Identifier')
      return undefined;
    const index = SCHEDULER_REGISTRY.methods[call.callee.property.name];
    if (index === undefined || call.arguments[index] !== argument) return undefined;
    return stringValue(call.arguments[SCHEDULER_REGISTRY.nameArgument]);
  };
  const direct = fromCall(node.parent, node);
  if (direct) return direct;
  const declarator = node.parent;
  if (declarator?.type !== 'VariableDeclarator' || declarator.id.type !== 'Identifier') return undefined;
  const variable = sourceCode.getDeclaredVariables(declarator)[0];
  for (const reference of variable?.references ?? []) {
    const name = fromCall(reference.identifier.parent, reference.identifier);
    if (name) return name;
  }
  return undefined;
}

function nameOf(
  sourceCode: SourceCode,
  entry: SchedulerEntry,
  node: SchedulerCall,
  located: Located,
  hasRegistry: boolean,
): string | undefined {
  if (located.resolved?.name) return located.resolved.name;
  const nameAt = entry.nameArgument;
  const option =
    nameAt && (nameAt.workAt === undefined || nameAt.workAt === located.workIndex)
      ? stringValue(at(node, nameAt.argument, located.workIndex, nameAt.option))
      : undefined;
  if (option) return option;
  const registered = hasRegistry ? registryName(sourceCode, node) : undefined;
  if (registered) return registered;
  if (node.parent?.type === 'VariableDeclarator' && node.parent.id.type === 'Identifier') return node.parent.id.name;
  // A `for await` loop goes by the function that runs it (`#startReportingHeartbeat`), as a poll loop does.
  return located.loopBody ? runnerName(enclosingFunction(node)) : undefined;
}

/** The name of the function that runs a loop, a private method's too (`#startReportingHeartbeat`). */
function runnerName(fn: FunctionLike | undefined): string | undefined {
  const parent = fn?.parent;
  return parent?.type === 'MethodDefinition' && parent.key.type === 'PrivateIdentifier' ? parent.key.name : functionNameOf(fn);
}

/** The scheduled work of one call of a scheduler of the catalogue (none when it holds no work), with `entry` as its scheduler. */
export function worksAt(sourceCode: SourceCode, entry: SchedulerEntry, node: SchedulerCall, hasRegistry = false): ScheduledWork[] {
  if (entry.kind === 'decorator' && node.parent?.type !== 'Decorator') return [];
  const located = locateWork(sourceCode, entry, node);
  if (!located) return [];
  const { startedBy, jobNames, ...work } = located;
  const name = startedBy ? jobNames : nameOf(sourceCode, entry, node, located, hasRegistry);
  const coordinatedByOption =
    isCoordinatedByOption(entry, node, located.workIndex) || (work.decorator !== undefined && isHandedToDecoratorLocker(work.decorator));
  // Job files: the schedule is decided where they are started, once per start.
  return (startedBy ?? [node]).map((schedulerNode) => ({
    entry,
    schedulerNode,
    ...work,
    name,
    period: periodOf(sourceCode, entry, node, located.workIndex),
    coordinatedByOption,
  }));
}

/** Every scheduled work in the file, in source order of the scheduler calls. */
export function scheduledWorks(context: DetectContext): ScheduledWork[] {
  const sourceCode = context.sourceCode;
  const loops: ScheduledWork[] = pollLoops(sourceCode).map((loop) => ({
    entry: POLL_LOOP,
    schedulerNode: loop.pause,
    loopBody: loop.body,
    pollLoop: loop.loop,
    name: loop.name,
    period: loop.period ? { kind: 'interval', text: sourceCode.getText(loop.period) } : undefined,
    coordinatedByOption: false,
  }));
  // A scheduler module handed in as a parameter (`cron.schedule('0 * * * *', fn)`): no import to track.
  for (const { entry, call } of handedSchedulerCalls(sourceCode)) loops.push(...worksAt(sourceCode, entry, call));
  const references = importedReferences(context, SCHEDULER_APIS);
  if (references.length === 0) return loops;
  const hasRegistry = moduleSpecifiers(sourceCode.ast).has(SCHEDULER_REGISTRY.module);
  const out: ScheduledWork[] = [];
  for (const { entry, node } of references) {
    if (node.type !== 'CallExpression' && node.type !== 'NewExpression') continue;
    out.push(...worksAt(sourceCode, entry, node, hasRegistry));
  }
  return loops.length === 0 ? out : [...out, ...loops].sort((a, b) => a.schedulerNode.range[0] - b.schedulerNode.range[0]);
}

/** The function the work runs, when it is defined in this file. */
export function workFunctionOf(work: ScheduledWork): FunctionLike | undefined {
  return work.resolved?.fn;
}
