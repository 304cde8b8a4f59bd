// What the effects walk needs to know about one module: its guard calls (replica-guard's and the
// in-house ones named in settings), its queue enqueues (deduplicated or not), its telemetry bindings. Built
// the same way for the linted file and for a project module its scheduled work reaches.
import type { TSESTree } from '@typescript-eslint/utils';
import { QUEUES, SELF_DEDUPLICATING_METHODS, type QueueEntry } from '../../src/knowledge/queues.js';
import type { DetectContext } from '../detect-context.js';
import { memberPropertyName, propertyKeyName } from '../ast/property-names.js';
import { moduleSpecifiers } from '../imports/imported-references.js';
import { readSettings } from '../settings.js';
import { descendants } from '../sql/descendants.js';
import { REDIS_ATOMIC_SCRIPTS } from '../../src/knowledge/redis-clients.js';
import type { EffectsOptions } from './external-effects.js';
import { collectGuardCalls } from './guard-calls.js';
import type { GuardLookup } from './is-guarded.js';
import { telemetryBindings } from './work-intent.js';
import { nameWords } from '../ast/name-words.js';
import { receiverName } from '../ast/receiver-name.js';

/** The word a receiver's name holds when it is a queue (`exportQueue`, `queue`, `this.mail_queue`). */
const QUEUE_WORD = 'queue';

/** A queue call that schedules inside the queue, or enqueues with a deduplication option. */
function isDeduplicatedEnqueue(queues: readonly QueueEntry[], call: TSESTree.CallExpression): boolean {
  const method = memberPropertyName(call.callee);
  if (method === undefined) return false;
  return queues.some(
    (q) =>
      q.schedulingMethods.includes(method) ||
      SELF_DEDUPLICATING_METHODS.includes(method) ||
      (q.enqueueMethods.includes(method) &&
        call.arguments.some(
          (a) =>
            a.type === 'ObjectExpression' &&
            a.properties.some((p) => p.type === 'Property' && q.dedupeOptions.includes(propertyKeyName(p) ?? '')),
        )),
  );
}

/** `this.mailQueue.add(name, data)`: an enqueue method of an imported queue package on a receiver named for a queue. */
function isQueueEnqueue(queues: readonly QueueEntry[], call: TSESTree.CallExpression): boolean {
  const method = memberPropertyName(call.callee);
  if (method === undefined || call.callee.type !== 'MemberExpression') return false;
  const receiver = receiverName(call.callee.object);
  return receiver !== undefined && nameWords(receiver).includes(QUEUE_WORD) && queues.some((q) => q.enqueueMethods.includes(method));
}

/** The script text of `{ lua: '…' }` (a string or a template). */
function scriptText(options: TSESTree.Node | undefined): string | undefined {
  if (options?.type !== 'ObjectExpression') return undefined;
  for (const p of options.properties) {
    if (p.type !== 'Property' || propertyKeyName(p) !== REDIS_ATOMIC_SCRIPTS.scriptOption) continue;
    if (p.value.type === 'Literal' && typeof p.value.value === 'string') return p.value.value;
    if (p.value.type === 'TemplateLiteral') return p.value.quasis.map((q) => q.value.raw).join(' ');
  }
  return undefined;
}

/** Custom commands the module defines (`redis.defineCommand('popDue', { lua })`) whose script takes items off a shared structure. */
function atomicTakeCommands(context: DetectContext): ReadonlySet<string> {
  const sourceCode = context.sourceCode;
  const names = new Set<string>();
  if (!sourceCode.text.includes(REDIS_ATOMIC_SCRIPTS.defineMethod)) return names;
  for (const node of descendants(sourceCode.ast, sourceCode.visitorKeys)) {
    if (node.type !== 'CallExpression' || memberPropertyName(node.callee) !== REDIS_ATOMIC_SCRIPTS.defineMethod) continue;
    const name = node.arguments[0];
    const script = scriptText(node.arguments[1]);
    if (
      name?.type === 'Literal' &&
      typeof name.value === 'string' &&
      script !== undefined &&
      REDIS_ATOMIC_SCRIPTS.takeCommands.test(script)
    )
      names.add(name.value);
  }
  return names;
}

export interface ModuleWorkKnowledge {
  guards: GuardLookup;
  effects: EffectsOptions;
}

/** The guard lookup and effects options of the module `context` lints or reads. */
export function moduleWorkKnowledge(context: DetectContext): ModuleWorkKnowledge {
  const program = context.sourceCode.ast;
  const guards = collectGuardCalls(context, readSettings(context.settings).guards).byName;
  const modules = moduleSpecifiers(program);
  const queues = QUEUES.filter((q) => q.modules.some((m) => modules.has(m)));
  const takes = atomicTakeCommands(context);
  return {
    guards,
    effects: {
      sourceCode: context.sourceCode,
      isGuardCall: (call) => guards(call) !== undefined,
      isCoordinatedCall: takes.size === 0 ? undefined : (call) => takes.has(memberPropertyName(call.callee) ?? ''),
      enqueueOf:
        queues.length === 0
          ? undefined
          : (call) => (isDeduplicatedEnqueue(queues, call) ? 'deduplicated' : isQueueEnqueue(queues, call) ? 'plain' : undefined),
      telemetry: telemetryBindings(program),
    },
  };
}
