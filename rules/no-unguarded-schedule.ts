// no-unguarded-schedule: a timer, cron job or scheduled method whose work runs on every replica.
// The catalogue (src/knowledge/schedulers.ts) says where each scheduler keeps its work and its
// schedule; this file turns a matched call into one model — work function, period, job name —
// and decides whether that work is guarded.
import { getFunctionHeadLocation } from '@eslint-community/eslint-utils';
import type { TSESTree } from '@typescript-eslint/utils';
import type { RuleFix, RuleFixer, SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { basename, extname } from 'node:path';
import { PERIOD_GUARD } from '../src/knowledge/guards.js';
import { QUEUES, SELF_DEDUPLICATING_METHODS } from '../src/knowledge/queues.js';
import {
  SCHEDULER_REGISTRY,
  SCHEDULERS,
  argumentIndex,
  unitObjectToMs,
  type ScheduleLocation,
  type SchedulerEntry,
} from '../src/knowledge/schedulers.js';
import { createRule } from './utils/create-rule.js';
import { codeTextOf } from '../analysis/source/code-text.js';
import { mentionsSchedule } from './no-unguarded-schedule/schedule-mentions.js';
import { usesBrowserGlobals } from './no-unguarded-schedule/browser-code.js';
import { isInEffectHookCallback } from './no-unguarded-schedule/effect-hook-callback.js';
import { isForwardedParameter } from './no-unguarded-schedule/forwarded-parameter.js';
import { isInPromiseExecutor } from './no-unguarded-schedule/promise-executor.js';
import { workEffects, type EffectsOptions } from '../analysis/scheduled-work/external-effects.js';
import { collectGuardCalls } from '../analysis/scheduled-work/guard-calls.js';
import { guardStatementText, guardWithReschedule, rescheduleStatementOf, type SchedulePeriod } from './rewrites/guard-statement.js';
import { importedReferences, moduleSpecifiers, type TrackedApi } from '../analysis/imports/imported-references.js';
import { isGuarded } from '../analysis/scheduled-work/is-guarded.js';
import { jobName as toJobName } from './rewrites/job-name.js';
import { runtimeImport } from './rewrites/runtime-import.js';
import { serviceName } from './rewrites/service-name.js';
import { readSettings } from '../analysis/settings.js';
import { isFunctionLike, resolveWorkFunction, type FunctionLike, type ResolvedWork } from '../analysis/scheduled-work/work-function.js';

/** What the `guard-schedules` codemod needs to rewrite one finding. */
export interface UnguardedScheduleFacts {
  /** Catalogue id, e.g. `setInterval`, `node-cron.schedule`, `nestjs.Cron`. */
  scheduler: string;
  /** The resolved work function; undefined when it is defined in another file (or is a `for await` body). */
  workFunction: TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression | undefined;
  /** kebab-case job name from the function, method or variable name. */
  jobName: string | undefined;
  /** Interval as written, or the literal cron expression (with the time zone option as written). */
  period: SchedulePeriod;
  /** For `@Cron` / `@Interval` / `@Timeout`. */
  decorator?: TSESTree.Decorator;
  /** The scheduling call itself (`setInterval(…)`, `new CronJob(…)`, the decorator's call). */
  schedulerNode: TSESTree.CallExpression | TSESTree.NewExpression;
  /** For `for await (… of setInterval(ms))`: the loop body is the work; the guard exits with `continue`. */
  loopBody?: TSESTree.BlockStatement;
  /** The class member when the work is a method (`async` goes before its key). */
  member?: TSESTree.MethodDefinition | TSESTree.PropertyDefinition;
  /** How the inserted guard leaves the work: `return` from a function, `continue` in a loop. */
  exit: 'return' | 'continue';
  /** Job name to use when `jobName` is undefined: file name and line. */
  fallbackJobName: string;
}

export type Options = [{ reportAll?: boolean }];
export type MessageIds = 'unguardedSchedule' | 'addClaimPeriod';

type SchedulerCall = TSESTree.CallExpression | TSESTree.NewExpression;

const SCHEDULER_APIS: TrackedApi<SchedulerEntry>[] = SCHEDULERS.map((entry) => ({
  modules: entry.modules,
  path: entry.path,
  kind: entry.kind === 'construct' ? 'construct' : 'call',
  entry,
}));

/** A cheap text pre-filter: a file that mentions none of these cannot match. */

function argumentsOf(node: SchedulerCall): TSESTree.CallExpressionArgument[] {
  return node.arguments;
}

function property(object: TSESTree.Node | undefined, name: string): TSESTree.Node | undefined {
  if (object?.type !== 'ObjectExpression') return undefined;
  for (const prop of object.properties) {
    if (prop.type !== 'Property' || prop.computed) continue;
    const key = prop.key.type === 'Identifier' ? prop.key.name : prop.key.type === 'Literal' ? String(prop.key.value) : undefined;
    if (key === name) return prop.value;
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
  const args = argumentsOf(node);
  const index = argumentIndex(ref, args.length, workIndex);
  if (index === undefined) return undefined;
  const arg = args[index];
  if (!arg || arg.type === 'SpreadElement') return undefined;
  return option === undefined ? arg : property(arg, option);
}

/** Could this argument be a work function (a function, a name, `x.bind(this)`)? Object literals and strings cannot. */
function couldBeWork(node: TSESTree.Node | undefined): boolean {
  return (
    node !== undefined &&
    (isFunctionLike(node) ||
      node.type === 'Identifier' ||
      node.type === 'MemberExpression' ||
      node.type === 'CallExpression' ||
      node.type === 'TSAsExpression')
  );
}

interface Located {
  /** The expression naming the work, or undefined for a decorated method / loop body. */
  expression?: TSESTree.Node;
  workIndex?: number;
  resolved?: ResolvedWork;
  loopBody?: TSESTree.BlockStatement;
  decorator?: TSESTree.Decorator;
}

function locateWork(sourceCode: SourceCode, entry: SchedulerEntry, node: SchedulerCall): Located | undefined {
  const args = argumentsOf(node);
  for (const location of entry.work) {
    if (location.kind === 'argument') {
      const value = at(node, location.argument, undefined, location.option);
      if (!couldBeWork(value)) continue;
      return { expression: value, workIndex: location.argument, resolved: resolveWorkFunction(sourceCode, value!) };
    }
    if (location.kind === 'task') {
      let task: TSESTree.Node | undefined = args[location.argument];
      if (task?.type === 'Identifier') {
        const resolved = resolveWorkFunction(sourceCode, task);
        task = resolved?.wrapper;
        if (!task) {
          // `const task = new Task(…)` is a NewExpression, not a call: look the declarator up directly.
          task = taskDeclaration(sourceCode, args[location.argument] as TSESTree.Identifier);
        }
      }
      if (task?.type !== 'NewExpression' && task?.type !== 'CallExpression') continue;
      const handler = task.arguments[location.taskArgument];
      if (!couldBeWork(handler)) continue;
      return { expression: handler, workIndex: location.argument, resolved: resolveWorkFunction(sourceCode, handler!) };
    }
    if (location.kind === 'for-await-body') {
      const parent = node.parent;
      if (parent?.type === 'ForOfStatement' && parent.await && parent.right === node && parent.body.type === 'BlockStatement') {
        return { loopBody: parent.body };
      }
      continue;
    }
    if (location.kind === 'decorated-method') {
      const decorator = node.parent;
      const member = decorator?.parent;
      if (decorator?.type === 'Decorator' && member?.type === 'MethodDefinition' && member.value.type === 'FunctionExpression') {
        const name =
          member.key.type === 'Identifier' ? member.key.name : member.key.type === 'PrivateIdentifier' ? `#${member.key.name}` : undefined;
        return { decorator, resolved: { fn: member.value, name, member } };
      }
    }
  }
  return undefined;
}

function taskDeclaration(sourceCode: SourceCode, identifier: TSESTree.Identifier): TSESTree.Node | undefined {
  const scope = sourceCode.getScope(identifier);
  for (let s: typeof scope | null = scope; s; s = s.upper) {
    const variable = s.set.get(identifier.name);
    if (!variable) continue;
    const def = variable.defs[0];
    if (def?.node.type === 'VariableDeclarator' && def.node.init) return def.node.init;
    return undefined;
  }
  return undefined;
}

function period(sourceCode: SourceCode, entry: SchedulerEntry, node: SchedulerCall, workIndex: number | undefined): SchedulePeriod {
  for (const location of entry.schedule) {
    const value = at(node, location.argument, workIndex, location.option);
    if (!value) continue;
    if (location.kind === 'interval') {
      if (location.unitObject) {
        if (value.type !== 'ObjectExpression') return undefined;
        const units: Record<string, number> = {};
        for (const prop of value.properties) {
          if (
            prop.type !== 'Property' ||
            prop.key.type !== 'Identifier' ||
            prop.value.type !== 'Literal' ||
            typeof prop.value.value !== 'number'
          ) {
            if (prop.type === 'Property' && prop.key.type === 'Identifier' && prop.key.name === 'runImmediately') continue;
            return undefined;
          }
          units[prop.key.name] = prop.value.value;
        }
        const ms = unitObjectToMs(units);
        return ms === undefined ? undefined : { kind: 'interval', text: String(ms) };
      }
      return { kind: 'interval', text: sourceCode.getText(value) };
    }
    const expression = stringValue(value);
    if (expression === undefined) continue;
    const tz = entry.timeZone ? at(node, entry.timeZone.argument, workIndex, entry.timeZone.option) : undefined;
    const tzUsable = tz && !(tz.type === 'Literal' && tz.value === null) && !(tz.type === 'Identifier' && tz.name === 'undefined');
    return tzUsable ? { kind: 'cron', expression, tzText: sourceCode.getText(tz) } : { kind: 'cron', expression };
  }
  return undefined;
}

function isCoordinated(entry: SchedulerEntry, node: SchedulerCall, workIndex: number | undefined): boolean {
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

function jobNameFor(
  sourceCode: SourceCode,
  entry: SchedulerEntry,
  node: SchedulerCall,
  located: Located,
  hasRegistry: boolean,
): string | undefined {
  const named = located.resolved?.name;
  if (named) return toJobName(named);
  const nameAt = entry.nameArgument;
  const option =
    nameAt && (nameAt.workAt === undefined || nameAt.workAt === located.workIndex)
      ? stringValue(at(node, nameAt.argument, located.workIndex, nameAt.option))
      : undefined;
  if (option) return toJobName(option);
  if (hasRegistry) {
    const registered = registryName(sourceCode, node);
    if (registered) return toJobName(registered);
  }
  if (node.parent?.type === 'VariableDeclarator' && node.parent.id.type === 'Identifier') return toJobName(node.parent.id.name);
  return undefined;
}

/** Where the squiggle goes: `async function sweep`, `async () =>`, a method's key. */
function functionHead(sourceCode: SourceCode, fn: FunctionLike): TSESTree.SourceLocation {
  if (fn.type === 'ArrowFunctionExpression') {
    let arrow = fn.body ? sourceCode.getTokenBefore(fn.body) : null;
    while (arrow && arrow.value !== '=>') arrow = sourceCode.getTokenBefore(arrow);
    if (arrow) return { start: fn.loc.start, end: arrow.loc.end };
  }
  const parent = fn.parent;
  if ((parent?.type === 'MethodDefinition' || parent?.type === 'Property') && parent.value === fn) return parent.key.loc;
  return getFunctionHeadLocation(fn as never, sourceCode as never) as TSESTree.SourceLocation;
}

function isInside(inner: TSESTree.Node, outer: TSESTree.Node): boolean {
  return inner.range[0] >= outer.range[0] && inner.range[1] <= outer.range[1];
}

function lineIndent(sourceCode: SourceCode, line: number): string {
  return /^\s*/.exec(sourceCode.lines[line - 1] ?? '')?.[0] ?? '';
}

/** Edits that put `statement` first in `fn` (a block, or an expression body turned into one) and make it async. */
function insertGuardFixes(
  sourceCode: SourceCode,
  fixer: RuleFixer,
  facts: UnguardedScheduleFacts,
  statement: string,
): RuleFix[] | undefined {
  const fixes: RuleFix[] = [];
  const fn = facts.workFunction;
  const block: TSESTree.BlockStatement | undefined = fn ? (fn.body.type === 'BlockStatement' ? fn.body : undefined) : facts.loopBody;
  if (fn) {
    if (fn.generator) return undefined;
    if (!fn.async) {
      const member =
        facts.member ?? (fn.parent?.type === 'Property' && (fn.parent.method || fn.parent.kind !== 'init') ? fn.parent : undefined);
      if (member && member.type !== 'PropertyDefinition' && member.value === fn) {
        const keyStart = member.computed ? sourceCode.getTokenBefore(member.key) : sourceCode.getFirstToken(member.key);
        if (!keyStart) return undefined;
        fixes.push(fixer.insertTextBefore(keyStart, 'async '));
      } else {
        fixes.push(fixer.insertTextBeforeRange(fn.range, 'async '));
      }
      const returnType = fn.returnType?.typeAnnotation;
      if (returnType && !/^Promise\s*</.test(sourceCode.getText(returnType))) {
        fixes.push(fixer.replaceText(returnType, `Promise<${sourceCode.getText(returnType)}>`));
      }
    }
  }
  if (block) {
    const first = block.body[0];
    if (first) {
      const indent = lineIndent(sourceCode, first.loc.start.line);
      const alone = indent.length === first.loc.start.column;
      fixes.push(fixer.insertTextBefore(first, alone ? `${statement}\n${indent}` : `${statement} `));
    } else {
      fixes.push(fixer.insertTextAfterRange([block.range[0], block.range[0] + 1], ` ${statement} `));
    }
    return fixes;
  }
  if (fn && fn.body.type !== 'BlockStatement') {
    let arrow = sourceCode.getTokenBefore(fn.body);
    while (arrow && arrow.value !== '=>') arrow = sourceCode.getTokenBefore(arrow);
    const start = arrow ? sourceCode.getTokenAfter(arrow) : undefined;
    if (!start) return undefined;
    const expression = sourceCode.text.slice(start.range[0], fn.range[1]);
    const indent = lineIndent(sourceCode, fn.loc.start.line);
    fixes.push(
      fixer.replaceTextRange([start.range[0], fn.range[1]], `{\n${indent}  ${statement}\n${indent}  return ${expression};\n${indent}}`),
    );
    return fixes;
  }
  return undefined;
}

export const noUnguardedSchedule = createRule<MessageIds, Options, UnguardedScheduleFacts>({
  name: 'no-unguarded-schedule',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require scheduled work (timers, cron jobs, scheduled methods) to be guarded so that one replica runs it per period',
      recommended: true,
    },
    hasSuggestions: true,
    messages: {
      unguardedSchedule:
        '{{scheduler}} runs this work on every replica. Begin it with `if (!(await {{guard}}(key, period))) return;` from replica-guard, or run it inside runExclusive/runOnce; wrap it in perReplica() if every replica must run it.',
      addClaimPeriod: 'Insert `{{statement}}` as the first statement.',
    },
    schema: [
      {
        type: 'object',
        additionalProperties: false,
        properties: {
          reportAll: {
            type: 'boolean',
            description:
              'Report every unguarded schedule, including work that only touches in-process state (a Map cleared, a counter reset, a log line).',
          },
        },
      },
    ],
  },
  defaultOptions: [{ reportAll: false }],
  detect(context, report) {
    const sourceCode = context.sourceCode;
    // Most files name no timer or scheduler: skip them before any AST work (no listener at all).
    if (!mentionsSchedule(codeTextOf(sourceCode))) return {};
    const reportAll = context.options[0]?.reportAll === true;
    return {
      Program(program) {
        // A browser's timers run per open tab, not per server replica.
        if (usesBrowserGlobals(sourceCode)) return;
        const settings = readSettings(context.settings);
        const references = importedReferences(context, SCHEDULER_APIS);
        if (references.length === 0) return;

        const guards = collectGuardCalls(context, settings.guards);
        const modules = moduleSpecifiers(program);
        const queues = QUEUES.filter((q) => q.modules.some((m) => modules.has(m)));
        const hasRegistry = modules.has(SCHEDULER_REGISTRY.module);
        const effectsOptions: EffectsOptions = {
          sourceCode,
          isGuardCall: (call) => guards.byName(call) !== undefined,
          isCoordinatedCall:
            queues.length === 0
              ? undefined
              : (call) => {
                  if (call.callee.type !== 'MemberExpression' || call.callee.property.type !== 'Identifier') return false;
                  const method = call.callee.property.name;
                  return queues.some(
                    (q) =>
                      q.schedulingMethods.includes(method) ||
                      SELF_DEDUPLICATING_METHODS.includes(method) ||
                      (q.enqueueMethods.includes(method) &&
                        call.arguments.some((a) => q.dedupeOptions.some((o) => property(a, o) !== undefined))),
                  );
                },
        };
        const reported = new Set<TSESTree.Node>();
        const filename = context.filename;
        const fileStem = basename(filename, extname(filename)).replace(/\.(test|spec)$/, '');

        for (const reference of references) {
          const entry = reference.entry;
          const node = reference.node;
          if (node.type !== 'CallExpression' && node.type !== 'NewExpression') continue;
          if (entry.kind === 'decorator' && node.parent?.type !== 'Decorator') continue;

          const located = locateWork(sourceCode, entry, node);
          if (!located) continue;
          // A timer wrapper forwarding its caller's callback, or a timer in a React effect: the
          // schedule worth guarding is elsewhere (the wrapper's caller), or in a browser.
          if (isForwardedParameter(located.expression, sourceCode) || isInEffectHookCallback(node)) continue;
          if (isCoordinated(entry, node, located.workIndex)) continue;
          const resolved = located.resolved;
          // perReplica(fn), or any guard wrapping the work where it is handed over.
          if (resolved?.wrapper && guards.byName(resolved.wrapper) !== undefined) continue;
          const fn: FunctionLike | undefined = resolved?.fn;
          if (entry.selfRescheduling && !(fn && isInside(node, fn))) continue;
          // A `setTimeout` loop inside `new Promise(…)` is a wait that settles the promise.
          if (entry.selfRescheduling && isInPromiseExecutor(fn!)) continue;

          const workNode: TSESTree.Node | undefined = fn ?? located.loopBody;
          const key = located.decorator ?? workNode ?? located.expression;
          if (!key || reported.has(key)) continue;

          if (workNode) {
            const body = fn ? fn.body : located.loopBody!;
            if (isGuarded(body, guards.byName, effectsOptions)) continue;
            const effects = workEffects(body, effectsOptions);
            if (effects.coordinated && !effects.external) continue;
            if (!reportAll && !effects.external) continue;
          }
          reported.add(key);

          const facts: UnguardedScheduleFacts = {
            scheduler: entry.id,
            workFunction: fn,
            jobName: jobNameFor(sourceCode, entry, node, located, hasRegistry),
            period: period(sourceCode, entry, node, located.workIndex),
            schedulerNode: node,
            exit: located.loopBody ? 'continue' : 'return',
            fallbackJobName: toJobName(`${fileStem}-${node.loc.start.line}`) ?? `job-${node.loc.start.line}`,
          };
          if (located.decorator) facts.decorator = located.decorator;
          if (located.loopBody) facts.loopBody = located.loopBody;
          if (resolved?.member) facts.member = resolved.member;

          const runtime = runtimeImport(sourceCode, filename, PERIOD_GUARD, context.languageOptions?.sourceType);
          const statement = guardStatementText(facts, serviceName(settings.service, filename), {
            callee: runtime.callee,
            fallbackJobName: facts.fallbackJobName,
            exit: facts.exit,
          });
          // A losing replica of a self-rescheduling loop must reschedule before it exits.
          const reschedule = entry.selfRescheduling && fn ? rescheduleStatementOf(fn, node) : undefined;
          const canEdit =
            statement !== undefined &&
            (fn !== undefined || located.loopBody !== undefined) &&
            !(fn?.generator ?? false) &&
            (!entry.selfRescheduling || reschedule !== undefined);
          const suggested = statement !== undefined && reschedule ? guardWithReschedule(statement, reschedule, sourceCode.text) : statement;

          report({
            messageId: 'unguardedSchedule',
            data: { scheduler: entry.id, guard: runtime.callee },
            node: located.decorator ?? fn ?? located.expression ?? node,
            loc: located.decorator ? undefined : fn ? functionHead(sourceCode, fn) : located.loopBody ? node.loc : undefined,
            facts,
            suggest: canEdit
              ? [
                  {
                    messageId: 'addClaimPeriod',
                    data: { statement: suggested! },
                    fix: (fixer) => {
                      const edits = insertGuardFixes(sourceCode, fixer, facts, suggested!);
                      // The import first: when both insert at offset 0 it must come before `async `.
                      return edits ? [...runtime.fix(fixer), ...edits] : [];
                    },
                  },
                ]
              : undefined,
          });
        }
      },
    };
  },
});

export default noUnguardedSchedule;
