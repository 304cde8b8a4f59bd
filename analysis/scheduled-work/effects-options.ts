// What the effects walk needs to know about one module: its guard calls (replica-guard's and the
// in-house ones named in settings), its deduplicated queue enqueues, its telemetry bindings. Built
// the same way for the linted file and for a project module its scheduled work reaches.
import type { TSESTree } from '@typescript-eslint/utils';
import { QUEUES, SELF_DEDUPLICATING_METHODS, type QueueEntry } from '../../src/knowledge/queues.js';
import type { DetectContext } from '../detect-context.js';
import { memberPropertyName, propertyKeyName } from '../ast/property-names.js';
import { moduleSpecifiers } from '../imports/imported-references.js';
import { readSettings } from '../settings.js';
import type { EffectsOptions } from './external-effects.js';
import { collectGuardCalls } from './guard-calls.js';
import type { GuardLookup } from './is-guarded.js';
import { telemetryBindings } from './work-intent.js';

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
  return {
    guards,
    effects: {
      sourceCode: context.sourceCode,
      isGuardCall: (call) => guards(call) !== undefined,
      isCoordinatedCall: queues.length === 0 ? undefined : (call) => isDeduplicatedEnqueue(queues, call),
      telemetry: telemetryBindings(program),
    },
  };
}
