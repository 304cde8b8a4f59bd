// A project's own schedule decorator: `@NightlyOnce('0 3 * * *')` imported from a project module whose
// exported function hands its arguments to a scheduler decorator of the catalogue and returns it
// (`return Cron(...args)`, `return Cron.call(null, ...rest)`), whatever condition picks the processes
// it does so in — a cluster's primary or pm2's first instance are one per host, so every host still
// runs the job. The decorated method is then that scheduler's declared job, judged as if the
// scheduler's decorator sat there. A wrapper that takes a lock, a lease or a leader's word (a
// coordinating call anywhere in it) is left alone, as is one whose module cannot be read.
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../../analysis/detect-context.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { defineFunctionFact, projectFunctionOf, type ProjectFunction } from '../../analysis/modules/index.js';
import { worksAt, type ScheduledWork } from '../../analysis/scheduled-work/scheduled-work.js';
import { callIntent } from '../../analysis/scheduled-work/work-intent.js';
import { SCHEDULERS, type SchedulerEntry } from '../../src/knowledge/schedulers.js';
import { projectImportCalls } from './imported-helper.js';

const DECORATORS = SCHEDULERS.filter((entry) => entry.kind === 'decorator' && entry.path.length === 1);
const NO_TELEMETRY: ReadonlySet<string> = new Set();

/** The catalogue decorator a call of the wrapper's module runs: `Cron(…)`, `Cron.call(null, …)`, `Cron.apply(null, args)`. */
function decoratorCalled(fn: ProjectFunction, call: TSESTree.CallExpression): SchedulerEntry | undefined {
  let callee = unwrapExpression(call.callee);
  const invoker = callee.type === 'MemberExpression' ? memberPropertyName(callee) : undefined;
  if (callee.type === 'MemberExpression' && (invoker === 'call' || invoker === 'apply')) callee = unwrapExpression(callee.object);
  if (callee.type !== 'Identifier') return undefined;
  const def = scopeVariable(fn.module.sourceCode, callee)?.defs[0];
  const specifier = def?.node.type === 'ImportSpecifier' ? def.node : undefined;
  const declaration = specifier?.parent;
  if (!specifier || declaration?.type !== 'ImportDeclaration') return undefined;
  const imported = specifier.imported.type === 'Identifier' ? specifier.imported.name : specifier.imported.value;
  return DECORATORS.find((entry) => entry.path[0] === imported && entry.modules.includes(declaration.source.value));
}

/** What a wrapper returns: its `return` arguments, or an arrow's expression body. */
function returnedCalls(fn: ProjectFunction): TSESTree.CallExpression[] {
  const body = fn.fn.body;
  const values =
    body.type === 'BlockStatement'
      ? [...descendants(body, fn.module.sourceCode.visitorKeys)].flatMap((n) =>
          n.type === 'ReturnStatement' && n.argument ? [n.argument] : [],
        )
      : [body];
  return values
    .map((value) => unwrapExpression(value))
    .filter((value): value is TSESTree.CallExpression => value.type === 'CallExpression');
}

/** The scheduler decorator a project function returns the call of, when nothing in it coordinates replicas. */
const wrappedScheduler = defineFunctionFact<SchedulerEntry | null>('wraps-a-schedule-decorator', null, (fn) => {
  const entry = returnedCalls(fn)
    .map((call) => decoratorCalled(fn, call))
    .find((found) => found !== undefined);
  if (!entry) return null;
  const calls = [...descendants(fn.fn.body, fn.module.sourceCode.visitorKeys)].filter((n) => n.type === 'CallExpression');
  return calls.some((call) => callIntent(call, NO_TELEMETRY) === 'coordinated') ? null : entry;
});

/** Each method decorated with an imported project decorator that wraps a scheduler's, as that scheduler's work. */
export function wrappedDecoratorWorks(context: DetectContext): ScheduledWork[] {
  const out: ScheduledWork[] = [];
  for (const { identifier, call } of projectImportCalls(context.sourceCode)) {
    if (call.parent?.type !== 'Decorator') continue;
    const helper = projectFunctionOf(context, identifier);
    const entry = helper ? wrappedScheduler(helper) : null;
    if (entry) out.push(...worksAt(context.sourceCode, entry, call));
  }
  return out;
}
