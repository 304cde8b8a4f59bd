// A job registered with a job manager of the project's own, defined in another module (src/knowledge/
// own-schedulers.ts): `this.jobs.add('digest', '0 * * * *', sendDigest)`, `app.scheduler.addJob({ cronTime:
// '0 3 * * *', onTick: async () => { … } })`, `new NightlyJob(ctx, { cronTime, command: purge })`. The call
// carries a cron schedule — a cron expression written out (with a wildcard or a step), or an option named
// for the cron time — and a work function: it is a registration, its work judged like a declared job's. A
// callee that only reads the expression (`cronstrue.toString`, `isValidCron`, `describeSchedule`), a call
// with no function, and a callee defined in this file (a wrapper: handed-callback.ts judges its calls) are not.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import {
  CRON_READER_WORDS,
  CRON_TIME_OPTIONS,
  isWrittenCronSchedule,
  JOB_WORK_OPTIONS,
  OWN_CRON_REGISTRATION,
} from '../../src/knowledge/own-schedulers.js';
import type { SchedulerEntry, ScheduleLocation, WorkLocation } from '../../src/knowledge/schedulers.js';
import { chainRoot } from '../ast/chain-root.js';
import { moduleBindings } from '../imports/module-bindings.js';
import { nameWords } from '../ast/name-words.js';
import { memberPropertyName, propertyKeyName } from '../ast/property-names.js';
import { scopeVariable } from '../ast/scope-variable.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { descendants } from '../sql/descendants.js';
import { worksAt, type ScheduledWork } from './scheduled-work.js';
import { isFunctionLike, resolveWorkFunction } from './work-function.js';

type Call = TSESTree.CallExpression | TSESTree.NewExpression;

const literalText = (node: TSESTree.Node | undefined): string | undefined =>
  node?.type === 'Literal' && typeof node.value === 'string'
    ? node.value
    : node?.type === 'TemplateLiteral' && node.expressions.length === 0
      ? (node.quasis[0]?.value.cooked ?? undefined)
      : undefined;

const isCronLiteral = (node: TSESTree.Node | undefined): boolean => {
  const text = literalText(node);
  return text !== undefined && isWrittenCronSchedule(text);
};

/** A function of this file, or a name imported from another module (its work judged there). */
function isWorkFunction(sourceCode: SourceCode, node: TSESTree.Node | undefined): node is TSESTree.Node {
  if (!node || node.type === 'SpreadElement') return false;
  const value = unwrapExpression(node);
  if (isFunctionLike(value)) return true;
  if (value.type !== 'Identifier' && value.type !== 'MemberExpression') return false;
  if (resolveWorkFunction(sourceCode, value)?.fn) return true;
  return value.type === 'Identifier' && scopeVariable(sourceCode, value)?.defs[0]?.type === 'ImportBinding';
}

/** The name the callee is called by: a function's, a method's, a class's. */
function calleeWords(call: Call): readonly string[] {
  const callee = unwrapExpression(call.callee);
  const name = callee.type === 'Identifier' ? callee.name : memberPropertyName(callee);
  return name === undefined ? [] : nameWords(name);
}

/** A callee defined in this file (a function, a method of this class, a class): a wrapper whose calls are judged where it schedules. */
function isDefinedHere(sourceCode: SourceCode, call: Call): boolean {
  const callee = unwrapExpression(call.callee);
  if (callee.type === 'Identifier') {
    const def = scopeVariable(sourceCode, callee)?.defs[0];
    return def !== undefined && def.type !== 'ImportBinding' && def.type !== 'Parameter';
  }
  return (
    callee.type === 'MemberExpression' &&
    callee.object.type === 'ThisExpression' &&
    resolveWorkFunction(sourceCode, callee)?.fn !== undefined
  );
}

/**
 * A call on something imported — a package's API (`schedules.task({ cron, run })` of a hosted scheduler), a function,
 * class or object of another module of the project (`scheduleCron(name, expr, fn)`, `new NightlyJob(expr, fn)`,
 * `require('./local-cron').schedule`: imported-helper.ts and constructed-helper.ts follow those to what they
 * schedule and any guard there) — or on an object of this file (`const cron = { schedule() {} }`): not a job
 * manager's registration judged here. What is: a manager reached through `this` or a parameter's member (`app.scheduler`).
 */
function isImportedApiCall(sourceCode: SourceCode, call: Call): boolean {
  const root = chainRoot(unwrapExpression(call.callee), { unwrap: 'wrappers' });
  if (!root) return false;
  if (moduleBindings(sourceCode.ast).has(root.name)) return true;
  const def = scopeVariable(sourceCode, root)?.defs[0];
  if (def?.type !== 'Parameter') return def !== undefined;
  // A method of the parameter itself (`scheduler.schedule(expr, fn)`): a module handed in, another API (handed-scheduler-module.ts).
  const callee = unwrapExpression(call.callee);
  return callee.type === 'MemberExpression' && unwrapExpression(callee.object) === root;
}

/** `{ cronTime, onTick }`: where the schedule and the work sit in a job object. */
function objectJob(sourceCode: SourceCode, object: TSESTree.ObjectExpression, argument: number) {
  let cron: ScheduleLocation | undefined;
  const functions: string[] = [];
  for (const p of object.properties) {
    const key = p.type === 'Property' && !p.computed ? propertyKeyName(p) : undefined;
    if (key === undefined || p.type !== 'Property') continue;
    const named = CRON_TIME_OPTIONS.includes(key) && !(p.value.type === 'Literal' && typeof p.value.value !== 'string');
    if (!cron && (named || isCronLiteral(p.value))) cron = { kind: 'cron', argument, option: key };
    else if (isWorkFunction(sourceCode, p.value)) functions.push(key);
  }
  const work = JOB_WORK_OPTIONS.find((name) => functions.includes(name)) ?? (functions.length === 1 ? functions[0] : undefined);
  return cron && work !== undefined ? { cron, work: { kind: 'argument' as const, argument, option: work } } : undefined;
}

/** Where a call's cron schedule and work sit: an argument each (the work after the schedule first), or one job object. */
function registrationShape(sourceCode: SourceCode, call: Call): { cron: ScheduleLocation; work: WorkLocation } | undefined {
  const args = call.arguments;
  const cronAt = args.findIndex((arg) => isCronLiteral(arg));
  if (cronAt >= 0) {
    const order = [...args.keys()].filter((i) => i !== cronAt).sort((a, b) => Number(a < cronAt) - Number(b < cronAt) || a - b);
    const workAt = order.find((i) => isWorkFunction(sourceCode, args[i]));
    return workAt === undefined ? undefined : { cron: { kind: 'cron', argument: cronAt }, work: { kind: 'argument', argument: workAt } };
  }
  for (const [i, arg] of args.entries()) {
    const job = arg.type === 'ObjectExpression' ? objectJob(sourceCode, arg, i) : undefined;
    if (job) return job;
  }
  return undefined;
}

/** Every job the file registers with a job manager of its own; `known`: the calls the scheduler catalogue already judges. */
export function ownCronRegistrationWorks(sourceCode: SourceCode, known: ReadonlySet<TSESTree.Node>): ScheduledWork[] {
  if (!OWN_CRON_REGISTRATION.test(sourceCode.text)) return [];
  const out: ScheduledWork[] = [];
  for (const node of descendants(sourceCode.ast, sourceCode.visitorKeys)) {
    if ((node.type !== 'CallExpression' && node.type !== 'NewExpression') || node.arguments.length < 1 || known.has(node)) continue;
    if (calleeWords(node).some((word) => CRON_READER_WORDS.includes(word)) || isDefinedHere(sourceCode, node)) continue;
    if (isImportedApiCall(sourceCode, node)) continue;
    const shape = registrationShape(sourceCode, node);
    if (!shape) continue;
    const entry: SchedulerEntry = {
      id: sourceCode.getText(node.callee).replace(/\s+/g, ''),
      modules: [],
      path: [],
      kind: node.type === 'NewExpression' ? 'construct' : 'call',
      work: [shape.work],
      schedule: [shape.cron],
    };
    out.push(...worksAt(sourceCode, entry, node));
  }
  return out;
}
