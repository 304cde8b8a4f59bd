// Jobs registered with a framework's cron service (src/knowledge/framework-crons.ts): Strapi's
// `strapi.cron.add({ '0 3 * * *': async () => { … }, digest: { task, options: { rule } } })`. Each
// property holding a function, or an object whose task is one, is a declared job: its work that
// function, its schedule the key (a rule) or the options' rule. Only on a receiver by the
// framework's name (`strapi`, `this.strapi`), with an object literal of jobs handed in.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { FRAMEWORK_CRON_CALL, FRAMEWORK_CRONS, type FrameworkCron } from '../../src/knowledge/framework-crons.js';
import type { DetectContext } from '../detect-context.js';
import { memberPropertyName, propertyKeyName } from '../ast/property-names.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { descendants } from '../sql/descendants.js';
import type { ScheduledWork, SchedulePeriod } from './scheduled-work.js';
import { couldBeWork } from './scheduled-work.js';
import { resolveWorkFunction } from './work-function.js';

/** A property of an object literal, by name. */
function option(object: TSESTree.Node | undefined, name: string): TSESTree.Node | undefined {
  if (object?.type !== 'ObjectExpression') return undefined;
  for (const p of object.properties) if (p.type === 'Property' && propertyKeyName(p) === name) return p.value;
  return undefined;
}

const text = (node: TSESTree.Node | undefined): string | undefined =>
  node?.type === 'Literal' && typeof node.value === 'string' ? node.value : undefined;

/** `strapi.cron.add`, `this.strapi.cron.add`: the framework whose cron service the call registers with. */
function frameworkOf(call: TSESTree.CallExpression): FrameworkCron | undefined {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression') return undefined;
  const service = unwrapExpression(callee.object);
  if (service.type !== 'MemberExpression') return undefined;
  const owner = unwrapExpression(service.object);
  const ownerName = owner.type === 'Identifier' ? owner.name : owner.type === 'MemberExpression' ? memberPropertyName(owner) : undefined;
  return FRAMEWORK_CRONS.find(
    (f) => f.method === memberPropertyName(callee) && f.service === memberPropertyName(service) && f.receivers.includes(ownerName ?? ''),
  );
}

/** One job of the object handed in: its work and schedule, or undefined for a property that is none. */
function jobOf(
  sourceCode: SourceCode,
  framework: FrameworkCron,
  call: TSESTree.CallExpression,
  p: TSESTree.Node,
): ScheduledWork | undefined {
  if (p.type !== 'Property' || p.computed) return undefined;
  const key = propertyKeyName(p);
  const task = option(p.value, framework.taskOption);
  const work = task ?? p.value;
  if (!couldBeWork(work) || work.type === 'ObjectExpression') return undefined;
  const options = task ? option(p.value, framework.optionsOption) : undefined;
  const rule = task ? text(option(options, framework.ruleOption)) : key;
  const tz = option(options, framework.timeZoneOption);
  const period: SchedulePeriod =
    rule === undefined ? undefined : { kind: 'cron', expression: rule, ...(tz ? { tzText: sourceCode.getText(tz) } : {}) };
  const resolved = resolveWorkFunction(sourceCode, work);
  return {
    entry: framework.entry,
    schedulerNode: call,
    expression: work,
    ...(resolved ? { resolved } : {}),
    name: task ? key : resolved?.name,
    period,
    coordinatedByOption: false,
  };
}

/** Every job the file registers with a framework's cron service. */
export function frameworkCronWorks(context: DetectContext): ScheduledWork[] {
  const sourceCode = context.sourceCode;
  if (!FRAMEWORK_CRON_CALL.test(sourceCode.text)) return [];
  const out: ScheduledWork[] = [];
  for (const node of descendants(sourceCode.ast, sourceCode.visitorKeys)) {
    if (node.type !== 'CallExpression') continue;
    const framework = frameworkOf(node);
    const jobs = framework ? node.arguments[0] : undefined;
    if (!framework || jobs?.type !== 'ObjectExpression') continue;
    for (const p of jobs.properties) {
      const job = jobOf(sourceCode, framework, node, p);
      if (job) out.push(job);
    }
  }
  return out;
}
